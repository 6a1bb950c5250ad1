-- A version 7 UUID (RFC 9562): the time in milliseconds in its first 48 bits, then random bits.
-- Rows keyed by it are added at the right edge of their primary key's index, where random
-- (version 4) keys each land on a page of their own: a write-heavy table then dirties, and
-- after every checkpoint logs whole, a page of its index a row. PostgreSQL 18 has uuidv7(),
-- but the service runs on 15 and later: gen_random_uuid()'s bytes, its first six replaced by
-- the time, and its version nibble 0100 made 0111 (bits 52 and 53; set_bit counts a byte's bits
-- from its lowest). `made_at` is now, unless a writer of past rows (the webhook bench's history)
-- gives their time.
CREATE FUNCTION "switchboard_uuid_v7"("made_at" timestamptz DEFAULT clock_timestamp())
RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
    set_bit(
      set_bit(
        overlay(uuid_send(gen_random_uuid())
          PLACING substring(int8send(floor(extract(epoch FROM made_at) * 1000)::bigint) FROM 3)
          FROM 1 FOR 6),
        52, 1),
      53, 1),
    'hex')::uuid
$$;
