-- 0004 (SQLite's 0007): Glicko-2 ratings (storage/ratings.py). Beside each rating its
-- deviation (RD) and volatility; `updated_at` stays the time of the player's last rated game,
-- from which the deviation grows. The Elo ratings already here stay the players' ratings,
-- with deviation 250 and volatility 0.06 (why: SQLite's 0007).

ALTER TABLE ratings
    ADD COLUMN deviation  double precision NOT NULL DEFAULT 350 CHECK (deviation > 0),
    ADD COLUMN volatility double precision NOT NULL DEFAULT 0.06 CHECK (volatility > 0);
UPDATE ratings SET deviation = 250;
