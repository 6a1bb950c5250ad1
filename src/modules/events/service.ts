import { now } from '../../clock.ts';
import type { Tx } from '../../db/connection.ts';
import { events } from '../../db/schema.ts';
import { newUuid } from '../../ids.ts';
// webhooks/deliveries.ts imports this module too; both only call each other at run time.
import { fanOut } from '../webhooks/deliveries.ts';

/** Every event type the service emits. The webhooks issue delivers them. */
export const EVENT_TYPES = [
  'account.connected',
  'account.expired',
  'account.disconnected',
  'post.published',
  'post.failed',
  'comment.created',
  'profile.deleted',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  ownerId: string;
  /** The profile the event belongs to (the envelope's `profile_id`). */
  profileId: string | null;
  type: EventType;
  data: Record<string, unknown>;
}

/**
 * Records an event without delivering it (`webhook.test` is delivered to one endpoint
 * only, by its sender). The envelope is serialised once here: every delivery attempt
 * sends exactly these bytes.
 */
export async function recordEvent(tx: Tx, event: NewEvent): Promise<{ id: string }> {
  const id = newUuid();
  const createdAt = now();
  const body = JSON.stringify({
    id,
    type: event.type,
    created_at: createdAt.toISOString(),
    profile_id: event.profileId,
    data: event.data,
  });
  await tx.insert(events).values({
    id,
    ownerId: event.ownerId,
    profileId: event.profileId,
    type: event.type,
    data: event.data,
    body,
    createdAt,
  });
  return { id };
}

/**
 * Records an event in the transaction of the change it reports, with a delivery for every
 * endpoint that wants it, so event and deliveries exist exactly when the change does (the
 * outbox pattern).
 */
export async function emit(tx: Tx, event: NewEvent): Promise<{ id: string }> {
  const recorded = await recordEvent(tx, event);
  await fanOut(tx, { id: recorded.id, ownerId: event.ownerId, profileId: event.profileId, type: event.type });
  return recorded;
}
