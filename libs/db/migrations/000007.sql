-- Tenant token keys are per environment: a token's `iss` names its environment and its `kid` is
-- looked up among that environment's keys only, so two environments may use the same kid and
-- one registering it never touches the other's tokens. The primary key leads with the
-- environment, so it also serves the per-environment listing (the old index goes).
alter table token_keys drop constraint token_keys_pkey;
alter table token_keys add primary key (environment_id, kid);
drop index token_keys_environment_idx;
