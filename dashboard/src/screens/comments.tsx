/**
 * The comments inbox: comments by other people on the accounts the session sees, newest
 * first, filtered by profile, account, post, reply status, hidden and platform (in the
 * page's address). Reply, hide or unhide, and the inbox's reply status. The first page is
 * read again every few seconds while the page is visible, so new comments appear without a
 * reload. Comment texts and author names are other people's words: shown as text only.
 */

import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { all, api, type Page, query, seg } from '../api.ts';
import { PATHS, useSession } from '../session.ts';
import {
  type Account,
  accountLabel,
  type Comment,
  type CommentReply,
  PLATFORM_NAMES,
  PLATFORMS,
  type Platform,
  type Profile,
  REPLY_STATUSES,
  type ReplyStatus,
} from '../types.ts';
import { Badge, Empty, ErrorNotice, Field, Progress, problemAt, Time, useAction, useLoad } from '../ui.tsx';

/** How often the inbox looks for new comments while it is on screen. */
const REFRESH_MS = 5000;
const PAGE = 50;

function CommentItem({
  comment,
  account,
  onChanged,
}: {
  comment: Comment;
  account: Account | undefined;
  onChanged: (c: Comment) => void;
}) {
  const [text, setText] = useState('');
  const [sent, setSent] = useState<CommentReply[]>([]);
  const reply = useAction(() => api.post<CommentReply>(`/v1/comments/${seg(comment.id)}/reply`, { text }));
  const hide = useAction((hidden: boolean) => api.post<Comment>(`/v1/comments/${seg(comment.id)}/hide`, { hidden }));
  const status = useAction((value: ReplyStatus) =>
    api.patch<Comment>(`/v1/comments/${seg(comment.id)}`, { reply_status: value }),
  );
  const author = comment.author_username ?? comment.author_id ?? 'someone';
  const replies = [...comment.replies, ...sent.filter((s) => !comment.replies.some((r) => r.id === s.id))];
  return (
    <li class="card comment">
      <p class="small muted">
        <strong class="author">{author}</strong> on {account ? accountLabel(account) : PLATFORM_NAMES[comment.platform]}{' '}
        · <Time iso={comment.commented_at} /> ·{' '}
        <a href={`${PATHS.comments}${query({ post: comment.post_id })}`}>this post's comments</a>
        {comment.hidden ? <Badge value="hidden" tone="warn" /> : null}
        <Badge value={comment.reply_status} tone={comment.reply_status === 'unreplied' ? 'warn' : 'neutral'} />
      </p>
      <p class="comment-text">{comment.text}</p>
      {replies.length > 0 ? (
        <ul class="plain replies small">
          {replies.map((r) => (
            <li key={r.id}>
              Reply ({r.status}): <span class="comment-text">{r.text}</span>
              {r.error ? <span class="field-error"> {r.error}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <div class="actions">
        {comment.can_reply ? (
          <form
            class="inline"
            onSubmit={async (e) => {
              e.preventDefault();
              const answer = await reply.run();
              if (answer) {
                setSent([...sent, answer]);
                setText('');
                onChanged({ ...comment, reply_status: 'replied' });
              }
            }}
          >
            <Field label={`Reply to ${author}`} error={problemAt(reply.error, 'body.text')}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  required
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  value={text}
                  onInput={(e) => setText(e.currentTarget.value)}
                />
              )}
            </Field>
            <button type="submit" disabled={reply.busy}>
              {reply.busy ? 'Sending…' : 'Reply'}
            </button>
          </form>
        ) : (
          <span class="muted small">No reply possible here (platform, permission or account state).</span>
        )}
        {comment.can_hide ? (
          <button
            type="button"
            class="secondary"
            disabled={hide.busy}
            onClick={async () => {
              const changed = await hide.run(!comment.hidden);
              if (changed) onChanged(changed);
            }}
          >
            {comment.hidden ? 'Unhide' : 'Hide'}
            <span class="visually-hidden"> the comment by {author}</span>
          </button>
        ) : null}
        <Field label="Reply status">
          {({ id }) => (
            <select
              id={id}
              value={comment.reply_status}
              disabled={status.busy}
              onChange={async (e) => {
                const changed = await status.run(e.currentTarget.value as ReplyStatus);
                if (changed) onChanged(changed);
              }}
            >
              {REPLY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <ErrorNotice error={reply.error ?? hide.error ?? status.error} />
    </li>
  );
}

export function CommentsScreen() {
  const { isOwner } = useSession();
  const location = useLocation();
  const q = location.query;
  const profile = q.profile ?? '';
  const filters = {
    account_id: q.account || undefined,
    post_id: q.post || undefined,
    reply_status: REPLY_STATUSES.includes(q.reply_status as ReplyStatus) ? q.reply_status : undefined,
    hidden: q.hidden === 'true' || q.hidden === 'false' ? q.hidden : undefined,
    platform: PLATFORMS.includes(q.platform as Platform) ? q.platform : undefined,
  };
  const set = (changes: Record<string, string | undefined>) =>
    location.route(`${PATHS.comments}${query({ ...q, ...changes })}`, true);

  const profiles = useLoad(() => (isOwner ? all<Profile>('/v1/profiles') : Promise.resolve([])), [isOwner]);
  const accounts = useLoad(() => all<Account>('/v1/accounts', profile !== '' ? { profile } : {}), [profile]);
  const options = profile !== '' ? { profile } : {};
  const key = JSON.stringify([profile, filters]);
  const first = useLoad(
    async (signal) => {
      const startedAt = Date.now();
      return {
        startedAt,
        page: await api.get<Page<Comment>>(`/v1/comments${query({ ...filters, limit: PAGE })}`, { ...options, signal }),
      };
    },
    [key],
  );
  const [older, setOlder] = useState<Comment[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  /** The answers of actions, shown until a reading of the list that began after them arrives. */
  const [changed, setChanged] = useState<Record<string, { comment: Comment; at: number }>>({});
  // Other filters start a new list.
  useEffect(() => {
    setOlder([]);
    setCursor(undefined);
    setChanged({});
  }, [key]);
  // New comments: the first page again, every few seconds while the page is visible.
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') first.reload();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [first.reload]);
  const next = cursor === undefined ? (first.data?.page.next_cursor ?? null) : cursor;
  const loadOlder = useAction(async () => {
    if (next === null) return null;
    const page = await api.get<Page<Comment>>(
      `/v1/comments${query({ ...filters, limit: PAGE, cursor: next })}`,
      options,
    );
    setOlder([...older, ...page.data]);
    setCursor(page.next_cursor);
    return page;
  });
  const listed = first.data?.page.data ?? [];
  const firstIds = new Set(listed.map((c) => c.id));
  const readAt = first.data?.startedAt ?? 0;
  const comments = [...listed, ...older.filter((c) => !firstIds.has(c.id))].map((c) => {
    const mine = changed[c.id];
    return mine && (mine.at > readAt || !firstIds.has(c.id)) ? mine.comment : c;
  });
  const accountOf = (id: string) => accounts.data?.find((a) => a.id === id);

  return (
    <main id="main">
      <h1>Comments</h1>
      <form class="inline filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        {isOwner ? (
          <Field label="Profile">
            {({ id }) => (
              <select
                id={id}
                value={profile}
                onChange={(e) => set({ profile: e.currentTarget.value || undefined, account: undefined })}
              >
                <option value="">Every profile</option>
                {(profiles.data ?? []).map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <Field label="Account">
          {({ id }) => (
            <select
              id={id}
              value={q.account ?? ''}
              onChange={(e) => set({ account: e.currentTarget.value || undefined })}
            >
              <option value="">Every account</option>
              {(accounts.data ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {accountLabel(a)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Platform">
          {({ id }) => (
            <select
              id={id}
              value={filters.platform ?? ''}
              onChange={(e) => set({ platform: e.currentTarget.value || undefined })}
            >
              <option value="">Every platform</option>
              {PLATFORMS.filter((p) => p !== 'tiktok').map((p) => (
                <option key={p} value={p}>
                  {PLATFORM_NAMES[p]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Reply status">
          {({ id }) => (
            <select
              id={id}
              value={filters.reply_status ?? ''}
              onChange={(e) => set({ reply_status: e.currentTarget.value || undefined })}
            >
              <option value="">Any</option>
              {REPLY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Hidden">
          {({ id }) => (
            <select
              id={id}
              value={filters.hidden ?? ''}
              onChange={(e) => set({ hidden: e.currentTarget.value || undefined })}
            >
              <option value="">Hidden or not</option>
              <option value="false">Not hidden</option>
              <option value="true">Hidden</option>
            </select>
          )}
        </Field>
        {filters.post_id ? (
          <p class="small">
            One post's comments.{' '}
            <button type="button" class="secondary small" onClick={() => set({ post: undefined })}>
              Show every post's
            </button>
          </p>
        ) : null}
      </form>
      <p class="muted small" aria-live="polite">
        New comments appear here by themselves.
      </p>
      <ErrorNotice error={first.error ?? accounts.error} />
      {first.loading && !first.data ? <Progress label="Loading comments…" /> : null}
      {first.data && comments.length === 0 ? <Empty>No comments match.</Empty> : null}
      <ul class="plain">
        {comments.map((c) => (
          <CommentItem
            key={c.id}
            comment={c}
            account={accountOf(c.account_id)}
            onChanged={(updated) => {
              setChanged((m) => ({ ...m, [c.id]: { comment: updated, at: Date.now() } }));
              first.reload();
            }}
          />
        ))}
      </ul>
      {next !== null && first.data ? (
        <button type="button" class="secondary" disabled={loadOlder.busy} onClick={() => void loadOlder.run()}>
          {loadOlder.busy ? 'Loading…' : 'Load older comments'}
        </button>
      ) : null}
      <ErrorNotice error={loadOlder.error} />
    </main>
  );
}
