-- 0012: each player of an event's entrants, once per event.
--
-- An entrant is a player or a Double TwixT team (`event_entrants.user_id` with its
-- `partner_id`); this table holds every one of their players under a unique key, so that no
-- player is in two teams of one event even when two processes sign them up at once.
CREATE TABLE event_players (
    event_id   INTEGER NOT NULL REFERENCES events (id),
    user_id    INTEGER NOT NULL,
    entrant_id INTEGER NOT NULL,
    PRIMARY KEY (event_id, user_id)
);
CREATE INDEX event_players_by_entrant ON event_players (event_id, entrant_id);
INSERT OR IGNORE INTO event_players (event_id, user_id, entrant_id)
    SELECT event_id, user_id, user_id FROM event_entrants;
INSERT OR IGNORE INTO event_players (event_id, user_id, entrant_id)
    SELECT event_id, partner_id, user_id FROM event_entrants WHERE partner_id IS NOT NULL;
