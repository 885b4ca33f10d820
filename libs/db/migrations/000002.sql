-- Webhook signing secrets are encrypted at rest (AES-256-GCM, libs/webhooks/src/secret-box.ts).
-- `secret` and `previous_secret` keep their text type and now hold `enc:v1:<key id>:…`; `key_id`
-- names the key the row was last written with, so a process finds the rows to re-encrypt
-- (null: a plaintext row from before this migration; each process re-encrypts those at start,
-- since SQL has no access to the key).
alter table webhook_secrets add column key_id text;
