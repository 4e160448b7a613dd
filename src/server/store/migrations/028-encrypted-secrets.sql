-- Secrets the API must show again or send on (ci_variables, ci_group_variables and ci_instance_variables .value,
-- ci_triggers.token, web_hooks .token, .url_variables and .custom_headers) are stored sealed with the server key of secrets.json: AES-256-GCM, `v1:` + base64(iv|tag|data).
-- SQL cannot encrypt, so the rows an earlier collab wrote in plain text are sealed on boot, before the server listens,
-- by store/secrets.ts useServerKey: one transaction that seals them and records the row below.
-- A constant sealed with the key that sealed the database's secrets: a boot with another key fails on it, clearly,
-- instead of handing out garbage or sealing new secrets with a second key.
CREATE TABLE server_key_check (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  sealed TEXT NOT NULL
);
