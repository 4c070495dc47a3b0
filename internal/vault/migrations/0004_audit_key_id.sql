-- Which key a row's hash was computed with: '' for a plain SHA-256 chain
-- link, else the id of the key derived from the seal key (an HMAC link),
-- so a sealed vault's trail cannot be recomputed without the passphrase.
ALTER TABLE audit ADD COLUMN key_id TEXT NOT NULL DEFAULT '';
