import { useState } from 'preact/hooks';
import { all, answer, api } from '../../api.ts';
import { APPROVAL_LABELS, APPROVAL_TONES } from '../../post-status.tsx';
import type { ApprovalLink, NewApprovalLink, Post } from '../../resources.ts';
import { roleHere, useSession } from '../../session.ts';
import {
  Badge,
  Confirm,
  ErrorNotice,
  Field,
  LinkShownOnce,
  LoadedTable,
  problemAt,
  Time,
  useAction,
  useConfirmed,
  useLoad,
} from '../../ui.tsx';

const LINK_TONES = { open: 'warn', used: 'good', expired: 'neutral', revoked: 'neutral' } as const;
const DECISION_LABELS = { approved: 'approved', changes_requested: 'changes requested' } as const;

/**
 * A client's own decision, in the dashboard of a member with the client role: Approve, or
 * Request changes with a comment, on the version of the post it sees.
 */
function ClientDecision({ post, onDecided }: { post: Post; onDecided: () => void }) {
  const [comment, setComment] = useState('');
  const decide = useAction((decision: 'approved' | 'changes_requested') =>
    answer(
      api.POST('/v1/posts/{id}/approval', {
        params: { path: { id: post.id } },
        body: { decision, version: post.updated_at, ...(comment.trim() !== '' ? { comment } : {}) },
      }),
    ),
  );
  const act = async (decision: 'approved' | 'changes_requested') => {
    if (await decide.run(decision)) onDecided();
  };
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <Field label="Your comment" hint="Needed to request changes." error={problemAt(decide.error, 'body.comment')}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            value={comment}
            onInput={(e) => setComment(e.currentTarget.value)}
          />
        )}
      </Field>
      <div class="actions">
        <button type="button" disabled={decide.busy} onClick={() => void act('approved')}>
          Approve
        </button>
        <button type="button" class="secondary" disabled={decide.busy} onClick={() => void act('changes_requested')}>
          Request changes
        </button>
      </div>
      <ErrorNotice error={decide.error} />
    </form>
  );
}

/**
 * The client's approval: where it stands, the decision and its comment (written by the
 * client: shown as text), a new link (its URL shown this once), and the post's links.
 */
export function ApprovalPanel({ post, onDecided }: { post: Post; onDecided: () => void }) {
  const approval = post.approval;
  // A client decides itself; links are for the agency to send.
  const isClient = roleHere(useSession()) === 'client';
  const links = useLoad(
    () =>
      approval && !isClient ? all('/v1/posts/{id}/approval-links', { path: { id: post.id } }) : Promise.resolve([]),
    [post, isClient],
  );
  const [created, setCreated] = useState<NewApprovalLink | null>(null);
  const create = useAction(() =>
    answer(api.POST('/v1/posts/{id}/approval-links', { params: { path: { id: post.id } } })),
  );
  const revoke = useConfirmed(
    (link: ApprovalLink) =>
      answer(
        api.DELETE('/v1/posts/{id}/approval-links/{link_id}', { params: { path: { id: post.id, link_id: link.id } } }),
      ),
    () => links.reload(),
  );
  if (!approval) return null;
  const undecided =
    post.source === 'api' &&
    approval.status !== 'approved' &&
    (post.status === 'draft' || post.status === 'awaiting_approval');
  if (isClient) {
    return (
      <section aria-labelledby="approval-title" class="card">
        <h2 id="approval-title">Your approval</h2>
        <p>
          <Badge value={APPROVAL_LABELS[approval.status]} tone={APPROVAL_TONES[approval.status]} />
        </p>
        {approval.comment !== null ? <blockquote class="post-text">{approval.comment}</blockquote> : null}
        {undecided ? <ClientDecision post={post} onDecided={onDecided} /> : null}
      </section>
    );
  }
  // The API makes links for a post that needs approval and does not have it yet.
  const canLink = undecided;
  return (
    <section aria-labelledby="approval-title" class="card">
      <h2 id="approval-title">Client approval</h2>
      <p>
        <Badge value={APPROVAL_LABELS[approval.status]} tone={APPROVAL_TONES[approval.status]} />
        {approval.decided_at ? (
          <span class="small">
            {' '}
            Decided <Time iso={approval.decided_at} />
          </span>
        ) : null}
      </p>
      {approval.status === 'pending' ? (
        <p class="muted small">Nothing is published before the client approves, even when its time comes.</p>
      ) : null}
      {approval.status === 'changes_requested' ? (
        <p class="muted small">Change the post, then send the client a new approval link.</p>
      ) : null}
      {approval.comment !== null ? (
        <figure class="client-comment">
          <figcaption class="small strong">The client's comment</figcaption>
          <blockquote class="post-text">{approval.comment}</blockquote>
        </figure>
      ) : null}
      {canLink ? (
        <div class="actions">
          <button
            type="button"
            disabled={create.busy}
            onClick={async () => {
              setCreated(null);
              const link = await create.run();
              if (link) {
                setCreated(link);
                links.reload();
              }
            }}
          >
            {create.busy ? 'Creating…' : 'Create approval link'}
          </button>
        </div>
      ) : null}
      <ErrorNotice error={create.error} />
      {created ? (
        <LinkShownOnce label="Approval link" url={created.url} onCopied={() => setCreated(null)}>
          <p>
            Send it to the client. Single use; expires <Time iso={created.expires_at} />.
          </p>
        </LinkShownOnce>
      ) : null}
      <h3>Approval links</h3>
      <LoadedTable
        loaded={links}
        loadingLabel="Loading the approval links…"
        empty="No approval link yet."
        caption="The post's approval links, newest first"
        tableClass="approval-links"
        columns={['Made', 'Status', 'Decision', 'Comment', 'Actions']}
        rows={(items) =>
          items.map((l) => (
            <tr key={l.id}>
              <td>
                <Time iso={l.created_at} />
                <p class="small muted">
                  valid until <Time iso={l.expires_at} />
                </p>
              </td>
              <td>
                <Badge value={l.status} tone={LINK_TONES[l.status]} />
              </td>
              <td>
                {l.decision ? (
                  <>
                    {DECISION_LABELS[l.decision]}
                    {l.used_at ? (
                      <p class="small">
                        <Time iso={l.used_at} />
                      </p>
                    ) : null}
                  </>
                ) : (
                  <span class="muted">—</span>
                )}
              </td>
              <td class="post-text">{l.comment ?? <span class="muted">—</span>}</td>
              <td>
                {l.status === 'open' ? (
                  <button type="button" class="danger small" onClick={() => revoke.ask(l)}>
                    Revoke<span class="visually-hidden"> the link made {l.created_at}</span>
                  </button>
                ) : (
                  <span class="muted">—</span>
                )}
              </td>
            </tr>
          ))
        }
      />
      <Confirm {...revoke.dialog} title="Revoke this approval link?" confirmLabel="Revoke link" dismissLabel="Keep it">
        <p>The client can no longer open it. The post keeps waiting for approval; you can send a new link.</p>
      </Confirm>
    </section>
  );
}
