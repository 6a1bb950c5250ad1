/**
 * The comments inbox: comments by other people on the accounts the session sees, newest
 * first, filtered by profile, account, post, reply status, hidden and platform (in the
 * page's address). Reply, hide or unhide, delete a reply sent from here (where the platform
 * allows it, once confirmed), and the inbox's reply status. The first page is
 * read again every few seconds while the page is visible, so new comments appear without a
 * reload. Comment texts and author names are other people's words: shown as text only.
 */

import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { answer, api } from '../api.ts';
import { platformEntry, platformLabel, platforms } from '../catalogue.ts';
import { ProfileAccountFilters, useAccounts, useProfiles } from '../choices.tsx';
import {
  type Account,
  accountLabel,
  type Comment,
  type CommentReply,
  REPLY_STATUSES,
  type ReplyStatus,
} from '../resources.ts';
import { PATHS, query } from '../session.ts';
import {
  Badge,
  Confirm,
  Empty,
  ErrorNotice,
  Progress,
  problemAt,
  SelectField,
  TextField,
  Time,
  useAction,
  useConfirmed,
  useLoad,
} from '../ui.tsx';

/** How often the inbox looks for new comments while it is on screen. */
const REFRESH_MS = 5000;
const PAGE = 50;
const STATUS_CHOICES = REPLY_STATUSES.map((s) => ({ value: s, label: s }));

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
  const path = { id: comment.id };
  const reply = useAction(() => answer(api.POST('/v1/comments/{id}/reply', { params: { path }, body: { text } })));
  const hide = useAction((hidden: boolean) =>
    answer(api.POST('/v1/comments/{id}/hide', { params: { path }, body: { hidden } })),
  );
  const status = useAction((value: ReplyStatus) =>
    answer(api.PATCH('/v1/comments/{id}', { params: { path }, body: { reply_status: value } })),
  );
  const remove = useConfirmed(
    (r: CommentReply) =>
      answer(api.DELETE('/v1/comments/{id}/replies/{reply_id}', { params: { path: { ...path, reply_id: r.id } } })),
    (_r, deleted) => setSent([...sent.filter((s) => s.id !== deleted.id), deleted]),
  );
  // Where the platform lets the account delete its own reply (the catalogue says).
  const canDelete = platformEntry(comment.platform)?.comments?.delete_reply === true;
  const author = comment.author_username ?? comment.author_id ?? 'someone';
  // A reply's latest state: what an action here answered, else the list's.
  const replies = [
    ...comment.replies.map((r) => sent.find((s) => s.id === r.id) ?? r),
    ...sent.filter((s) => !comment.replies.some((r) => r.id === s.id)),
  ];
  return (
    <li class="card comment">
      <p class="small muted">
        <strong class="author">{author}</strong> on {account ? accountLabel(account) : platformLabel(comment.platform)}{' '}
        · <Time iso={comment.commented_at} /> ·{' '}
        <a href={`${PATHS.comments}${query({ post: comment.post_id })}`}>this post's comments</a>
        {comment.hidden ? <Badge value="hidden" tone="warn" /> : null}
        <Badge value={comment.reply_status} tone={comment.reply_status === 'unreplied' ? 'warn' : 'neutral'} />
      </p>
      {comment.rating !== null ? <Stars rating={comment.rating} /> : null}
      <p class="comment-text">{comment.text}</p>
      {replies.length > 0 ? (
        <ul class="plain replies small">
          {replies.map((r) => (
            <li key={r.id}>
              Reply ({r.status}): <span class="comment-text">{r.text}</span>
              {r.error ? <span class="field-error"> {r.error}</span> : null}
              {canDelete && (r.status === 'sent' || r.status === 'deleting') ? (
                <>
                  {' '}
                  <button type="button" class="secondary small" onClick={() => remove.ask(r)}>
                    Delete<span class="visually-hidden"> the reply to {author}</span>
                  </button>
                </>
              ) : null}
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
            <TextField
              label={`Reply to ${author}`}
              error={problemAt(reply.error, 'body.text')}
              required
              value={text}
              onValue={setText}
            />
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
        <SelectField
          label="Reply status"
          value={comment.reply_status}
          disabled={status.busy}
          choices={STATUS_CHOICES}
          onValue={async (value) => {
            const changed = await status.run(value as ReplyStatus);
            if (changed) onChanged(changed);
          }}
        />
      </div>
      <ErrorNotice error={reply.error ?? hide.error ?? status.error} />
      <Confirm {...remove.dialog} title="Delete this reply?" confirmLabel="Delete reply">
        <p>
          The reply is deleted on {platformLabel(comment.platform)} as well: people no longer see it there. It stays
          listed here as deleted.
        </p>
      </Confirm>
    </li>
  );
}

export function CommentsScreen() {
  const location = useLocation();
  // The platforms whose comments the service reads.
  const commentPlatforms = platforms().filter((p) => p.comments !== null);
  const q = location.query;
  const profile = q.profile ?? '';
  const filters = {
    account_id: q.account || undefined,
    post_id: q.post || undefined,
    reply_status: REPLY_STATUSES.find((s) => s === q.reply_status),
    hidden: q.hidden === 'true' ? true : q.hidden === 'false' ? false : undefined,
    platform: commentPlatforms.find((p) => p.platform === q.platform)?.platform,
  };
  const set = (changes: Record<string, string | undefined>) =>
    location.route(`${PATHS.comments}${query({ ...q, ...changes })}`, true);

  const profiles = useProfiles();
  const accounts = useAccounts(profile);
  const header = { 'service-profile': profile || undefined };
  const key = JSON.stringify([profile, filters]);
  const first = useLoad(
    async (signal) => {
      const startedAt = Date.now();
      return {
        startedAt,
        page: await answer(api.GET('/v1/comments', { params: { query: { ...filters, limit: PAGE }, header }, signal })),
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
    const page = await answer(
      api.GET('/v1/comments', { params: { query: { ...filters, limit: PAGE, cursor: next }, header } }),
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
        <ProfileAccountFilters
          profiles={profiles.data}
          accounts={accounts.data}
          profile={profile}
          account={q.account ?? ''}
          set={set}
        />
        <SelectField
          label="Platform"
          none="Every platform"
          value={filters.platform ?? ''}
          choices={commentPlatforms.map((p) => ({ value: p.platform, label: p.label }))}
          onValue={(value) => set({ platform: value || undefined })}
        />
        <SelectField
          label="Reply status"
          none="Any"
          value={filters.reply_status ?? ''}
          choices={STATUS_CHOICES}
          onValue={(value) => set({ reply_status: value || undefined })}
        />
        <SelectField
          label="Hidden"
          none="Hidden or not"
          value={filters.hidden === undefined ? '' : String(filters.hidden)}
          choices={[
            { value: 'false', label: 'Not hidden' },
            { value: 'true', label: 'Hidden' },
          ]}
          onValue={(value) => set({ hidden: value || undefined })}
        />
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

/** A review's star rating (Google Business Profile's reviews are comments): drawn, and said in words. */
function Stars({ rating }: { rating: number }) {
  return (
    <p class="rating">
      <span aria-hidden="true">
        {'★'.repeat(rating)}
        {'☆'.repeat(Math.max(0, 5 - rating))}
      </span>
      <span class="visually-hidden">Rated {rating} of 5 stars</span>
    </p>
  );
}
