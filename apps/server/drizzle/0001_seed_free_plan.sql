-- Custom SQL migration file, put your code below! ---- The Free plan is the fallback of every profile (spec §3, §9). Limits stay open until an admin sets them.
INSERT INTO "pricing_plans" ("name", "price_cents", "daily_prompt_limit", "allowed_providers")
VALUES ('Free', 0, NULL, '[]'::jsonb)
ON CONFLICT ("name") DO NOTHING;
