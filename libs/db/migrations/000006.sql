-- A check that fails the statement it is part of. A commit is one statement (no begin/commit
-- round trips), so a condition found inside it (a channel moved under a stale writer, an
-- environment got a webhook the writer did not know of) must abort the whole statement, which
-- rolls back every row it wrote. The caller tells the conditions apart by SQLSTATE:
--   RTM01  the fence: a channel's last_seq was not what the writer expected
--   RTM02  an environment the writer believed had no webhook has one now
create function rtm_check(ok boolean, state text, message text) returns boolean
language plpgsql volatile as $$
begin
  if not ok then
    raise exception using errcode = state, message = message;
  end if;
  return true;
end
$$;
