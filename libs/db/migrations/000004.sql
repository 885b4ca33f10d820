-- Channel roles gain `readonly` (subscribes and reads history, never publishes).
alter table memberships drop constraint memberships_role_check;
alter table memberships add constraint memberships_role_check check (role in ('member', 'moderator', 'readonly'));
