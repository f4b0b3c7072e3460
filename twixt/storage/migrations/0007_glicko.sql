-- 0007: Glicko-2 ratings (storage/ratings.py). Beside each rating its deviation (RD) and
-- volatility; `updated_at` stays the time of the player's last rated game, from which the
-- deviation grows while they do not play. A newcomer's row starts at the defaults.
--
-- The ratings already here are Elo ratings. Each stays the player's rating, now with
-- deviation 250: Elo never said how sure it was, and 250 keeps the rating as the start while
-- the next few games may still move it almost as far as a newcomer's (350 would throw the
-- history away; a deviation below the provisional 110 would claim a certainty Elo never
-- measured). Volatility starts at 0.06 as a newcomer's.

ALTER TABLE ratings ADD COLUMN deviation REAL NOT NULL DEFAULT 350 CHECK (deviation > 0);
ALTER TABLE ratings ADD COLUMN volatility REAL NOT NULL DEFAULT 0.06 CHECK (volatility > 0);
UPDATE ratings SET deviation = 250;
