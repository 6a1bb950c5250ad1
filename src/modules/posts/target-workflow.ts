/**
 * The publishing of one post target as a workflow: every state a target can be in (its
 * `status`, which the API shows, and its `step`, where its jobs are) and every move between
 * them. publishing/, service.ts and approval/ change a target's state only through
 * `transition()` (or its update, `transitionUpdate()`) with this table, and a `publish_target`
 * job takes the step of each state from STEPS (publishing/publish-target.ts), which has one for
 * every state; docs/posts.md shows the workflow as a diagram generated from it. Every transition
 * that changes a target's `status` (start, publish, fail, cancel, retry) is made under its post's
 * lock (lockPost, or in moveTargetOfPost's statement), and so are the inserts and deletes of an
 * existing post's targets: the post's status, computed from its targets' statuses under that
 * lock (refreshPostStatus, moveTargetOfPost), is then exact.
 */
import { defineWorkflow, workflowTable } from '../../jobs/workflow.ts';
import { postTargets } from './tables.ts';

export const targetWorkflow = defineWorkflow({
  name: 'post target',
  states: {
    draft: { status: 'draft', step: null },
    /** Waits for the client's approval: never started, whatever its time, until approved. */
    awaiting_approval: { status: 'awaiting_approval', step: null },
    scheduled: { status: 'scheduled', step: null },
    /** Read the publishing quota (spent: wait and read again), then make the container. */
    quota: { status: 'publishing', step: 'quota' },
    /**
     * A carousel's item containers exist (Instagram, Threads), or a post's uploaded media
     * (LinkedIn): poll them until each is finished, then make the post's container.
     */
    items: { status: 'publishing', step: 'items' },
    /** The container is being made where making it publishes (TikTok): recorded before the call. */
    creating: { status: 'publishing', step: 'creating' },
    /** The container exists: poll it until it is finished. */
    processing: { status: 'publishing', step: 'processing' },
    /** A run claimed the publish of a finished container and is making the call. */
    claimed: { status: 'publishing', step: 'publish' },
    /** A new try of a target with a container: ask the container first. */
    recheck: { status: 'publishing', step: 'recheck' },
    published: { status: 'published', step: null },
    /** Published; a step the platform's adapter declares for after publishing is still to run. */
    after_publish: { status: 'published', step: 'after_publish' },
    /** That step is running: interrupted, it is not run again (it could act twice). */
    after_publish_running: { status: 'published', step: 'after_publish_running' },
    failed: { status: 'failed', step: null },
    cancelled: { status: 'cancelled', step: null },
    /**
     * Cancelled before its time while uploaded ahead (the platform publishes it by itself at the
     * post's time): the upload is being removed from the platform, so it never goes public.
     */
    withdrawing: { status: 'cancelled', step: 'withdraw' },
  },
  initial: ['draft', 'awaiting_approval', 'scheduled', 'published'],
  transitions: {
    /** The client approved the post: it is published at its time (at once when that has passed). */
    approve: { from: ['awaiting_approval'], to: 'scheduled' },
    /** Its time came: a new try starts. */
    start: { from: ['scheduled'], to: 'quota' },
    /** Its time came, and an earlier try left a container, which may have been published after all. */
    start_with_container: { from: ['scheduled'], to: 'recheck' },
    /**
     * Waits (for a spent quota, a container's processing, a retry, its expired account's
     * reconnection): the next job is queued for then.
     */
    wait: { from: ['quota', 'items', 'processing', 'claimed', 'recheck', 'withdrawing'] },
    /**
     * Its account was reconnected while it waited for that: the wait ends and the try goes on
     * from the same step, with a full retry window.
     */
    reconnected: { from: ['quota', 'items', 'processing', 'claimed', 'recheck'] },
    /** About to make a container whose making publishes (LinkedIn's post: once its media is processed). */
    create: { from: ['quota', 'items'], to: 'creating' },
    /** The platform refused to make it: nothing was received, so it may be made again. */
    creation_refused: { from: ['creating'], to: 'quota' },
    /** A carousel's item containers are made and recorded: they are processed before its own is made. */
    items_made: { from: ['quota'], to: 'items' },
    /** The container is made and recorded (a carousel's once its items were finished). */
    container_made: { from: ['quota', 'creating', 'items'], to: 'processing' },
    /** The earlier container can still be published. */
    container_usable: { from: ['recheck'], to: 'processing' },
    /** The earlier container failed or expired: a new one is made. */
    container_unusable: { from: ['recheck'], to: 'quota' },
    /** Of two runs of one target that both find the container finished, one claims its publish. */
    claim: { from: ['processing'], to: 'claimed' },
    /** A claimed publish whose run ended without an outcome: the container is asked again. */
    resume: { from: ['claimed'], to: 'processing' },
    /** On the platform, with nothing left to do (even if cancelled meanwhile: the platform wins). */
    publish: { from: ['processing', 'claimed', 'cancelled', 'withdrawing'], to: 'published' },
    /** On the platform, with the adapter's after-publishing step to run. */
    publish_then_continue: { from: ['processing', 'claimed', 'cancelled', 'withdrawing'], to: 'after_publish' },
    run_after_publish: { from: ['after_publish'], to: 'after_publish_running' },
    /** The after-publishing step ended (done, given up or failed): the post stays published. */
    end_after_publish: { from: ['after_publish', 'after_publish_running'], to: 'published' },
    fail: { from: ['quota', 'items', 'creating', 'processing', 'claimed', 'recheck'], to: 'failed' },
    cancel: {
      from: ['draft', 'awaiting_approval', 'scheduled', 'quota', 'items', 'processing', 'claimed', 'recheck'],
      to: 'cancelled',
    },
    /**
     * Cancelled before its time while its upload waits on the platform to be published then:
     * the upload is removed first (a job), recorded so a crash repeats only the removal.
     */
    withdraw: { from: ['quota', 'creating', 'processing', 'claimed', 'recheck'], to: 'withdrawing' },
    /** The upload is removed (or never became a post): cancelled. */
    withdrawn: { from: ['withdrawing'], to: 'cancelled' },
    /** POST .../retry: a new try, at once. */
    retry: { from: ['failed'], to: 'scheduled' },
  },
});

export type TargetState = keyof typeof targetWorkflow.states;
export type TargetTransition = keyof typeof targetWorkflow.transitions;

export const targetStates = workflowTable(targetWorkflow, postTargets, postTargets.id);
