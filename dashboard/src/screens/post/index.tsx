/**
 * One post: its text and schedule, the client's approval (the decision, its comment shown as
 * text, the approval links), and each target's outcome in words a person can act on (the
 * platform's message and code kept), with Retry and Cancel where the API allows them.
 */
import { useRoute } from 'preact-iso';
import { all, answer, api } from '../../api.ts';
import { POST_TONES, statusLabel } from '../../post-status.tsx';
import type { Account } from '../../resources.ts';
import { PATHS } from '../../session.ts';
import { Badge, Confirm, ErrorNotice, Progress, Time, useAction, useConfirmed, useLoad } from '../../ui.tsx';
import { ApprovalPanel } from './approval.tsx';
import { Targets } from './targets.tsx';

const FINISHED = new Set(['published', 'failed', 'cancelled']);

export function PostScreen() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const post = useLoad(() => answer(api.GET('/v1/posts/{id}', { params: { path: { id } } })), [id]);
  const accounts = useLoad(
    () =>
      post.data
        ? all('/v1/accounts', { header: { 'service-profile': post.data.profile_id } })
        : Promise.resolve<Account[]>([]),
    [post.data?.profile_id],
  );
  const retry = useAction(() => answer(api.POST('/v1/posts/{id}/retry', { params: { path: { id } } })));
  const cancel = useConfirmed(
    (postId: string) => answer(api.DELETE('/v1/posts/{id}', { params: { path: { id: postId } } })),
    () => post.reload(),
  );
  const p = post.data;
  const canRetry = p?.source === 'api' && p.targets.some((t) => t.status === 'failed');
  const canCancel = p?.source === 'api' && p.targets.some((t) => !FINISHED.has(t.status));
  return (
    <main id="main">
      <p>
        <a href={PATHS.posts}>← Posts</a>
      </p>
      <h1>Post</h1>
      <ErrorNotice error={post.error} />
      {post.loading && !p ? <Progress label="Loading the post…" /> : null}
      {p ? (
        <>
          <section class="card">
            <p>
              <Badge value={statusLabel(p.status)} tone={POST_TONES[p.status]} />{' '}
              <span class="muted small">
                <code>{p.id}</code>
              </span>
            </p>
            <p>
              Scheduled <Time iso={p.scheduled_at} />
            </p>
            <p class="post-text">{p.text ?? <span class="muted">No common text.</span>}</p>
            <p class="small muted">{p.media_ids.length} media</p>
            <div class="actions">
              {canRetry ? (
                <button
                  type="button"
                  disabled={retry.busy}
                  onClick={async () => {
                    if (await retry.run()) post.reload();
                  }}
                >
                  {retry.busy ? 'Retrying…' : 'Retry failed targets'}
                </button>
              ) : null}
              {canCancel ? (
                <button type="button" class="danger" onClick={() => cancel.ask(p.id)}>
                  Cancel post
                </button>
              ) : null}
              <button type="button" class="secondary" onClick={post.reload}>
                Refresh
              </button>
              {p.targets.some((t) => t.status === 'published') ? (
                <a class="button secondary" href={PATHS.postInsights(p.id)}>
                  Figures
                </a>
              ) : null}
            </div>
            <ErrorNotice error={retry.error} />
          </section>
          <ApprovalPanel post={p} onDecided={post.reload} />
          <Targets post={p} accounts={accounts.data ?? []} />
          <Confirm {...cancel.dialog} title="Cancel this post?" confirmLabel="Cancel post" dismissLabel="Keep the post">
            <p>Targets not yet published are cancelled. What is already on a platform stays there.</p>
          </Confirm>
        </>
      ) : null}
    </main>
  );
}
