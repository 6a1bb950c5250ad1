import { now } from '../../clock.ts';
import type { Tx } from '../../db/connection.ts';
import { events } from '../../db/schema.ts';
import { newUuid } from '../../ids.ts';

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
 * Records an event in the transaction of the change it reports, so the event exists
 * exactly when the change does (the outbox pattern).
 */
export async function emit(tx: Tx, event: NewEvent): Promise<{ id: string }> {
  const id = newUuid();
  await tx.insert(events).values({
    id,
    ownerId: event.ownerId,
    profileId: event.profileId,
    type: event.type,
    data: event.data,
    createdAt: now(),
  });
  return { id };
}
