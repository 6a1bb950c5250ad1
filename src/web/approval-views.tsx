/**
 * What the hosted approval page shows: the post as each account will publish it with the
 * decision's form, and the thanks after a decision. approval-pages.ts sends them; the post's
 * text, its options, the accounts' names, the brand and the client's comment are written by
 * others and shown as text.
 */
import { type ApprovalPageView, approvalPagePath, MAX_APPROVAL_COMMENT_LENGTH } from '../modules/posts/index.ts';
import { type Page, titledPage } from './page.tsx';

function formatTime(at: Date): string {
  // UTC, spelled out: the page has no script to show the reader's own zone.
  return `${at.toISOString().slice(0, 16).replace('T', ' at ')} UTC`;
}

function TargetSection({ target }: { target: ApprovalPageView['targets'][number] }) {
  return (
    <section class="card">
      <h2>
        {target.platformLabel}
        {target.accountName && ` · ${target.accountName}`}
      </h2>
      {target.text ? <p class="text">{target.text}</p> : <p class="muted">No text: the media alone.</p>}
      {target.options.length > 0 && (
        <dl>
          {target.options.map(([name, value]) => (
            <>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </>
          ))}
        </dl>
      )}
    </section>
  );
}

function MediaList({ media }: { media: ApprovalPageView['media'] }) {
  if (media.length === 0) return null;
  return (
    <div class="media">
      {media.map((m, i) =>
        m.type === 'image' ? (
          // biome-ignore lint/a11y/noRedundantAlt: the page knows nothing of a medium but its place among the post's.
          <img src={m.url} alt={`Image ${i + 1} of ${media.length}`} />
        ) : m.type === 'document' ? (
          <a href={m.url} rel="noreferrer">{`Document (PDF) ${i + 1} of ${media.length}`}</a>
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: a post's video comes with no captions to offer.
          <video src={m.url} controls preload="metadata" aria-label={`Video ${i + 1} of ${media.length}`} />
        ),
      )}
    </div>
  );
}

function When({ view }: { view: ApprovalPageView }) {
  if (view.status === 'draft') {
    return (
      <p>
        It is a draft: approving it does not publish it. It is published once it is scheduled, without asking you again.
      </p>
    );
  }
  if (view.timePassed) {
    return (
      <p>
        <strong>Its time, {formatTime(view.scheduledAt)}, has passed:</strong> if you approve it, it is published at
        once.
      </p>
    );
  }
  return <p>To be published on {formatTime(view.scheduledAt)}, once you approve it.</p>;
}

export interface FormState {
  /** The approval link's token: the form posts back to its page. */
  token: string;
  csrf: string;
  /** The comment as the client wrote it, shown again when the form is refused. */
  comment?: string;
  /** Why the form was refused. */
  error?: string;
  /** What changed since the client opened the page. */
  notice?: string;
}

/** The post, and the form to approve it or to request changes. */
export function decisionPage(view: ApprovalPageView, form: FormState, status = 200): Page {
  return {
    status,
    title: `Approve a post for ${view.brand}`,
    mediaSources: view.media.map((m) => new URL(m.url).origin),
    body: (
      <main>
        <h1>{view.brand} asks you to approve a post</h1>
        {form.notice && (
          <p class="error" role="status">
            {form.notice}
          </p>
        )}
        <When view={view} />
        <MediaList media={view.media} />
        {view.targets.map((target) => (
          <TargetSection target={target} />
        ))}
        <form method="post" action={approvalPagePath(form.token)}>
          <input type="hidden" name="csrf" value={form.csrf} />
          <input type="hidden" name="version" value={view.version} />
          <label for="comment">Comment (needed to request changes)</label>
          {form.error && (
            <p class="error" role="alert" id="comment-error">
              {form.error}
            </p>
          )}
          <textarea
            id="comment"
            name="comment"
            maxlength={MAX_APPROVAL_COMMENT_LENGTH}
            aria-describedby={form.error ? 'comment-error' : undefined}
            value={form.comment ?? ''}
          />
          <div class="buttons">
            <button type="submit" name="decision" value="approve">
              Approve
            </button>
            <button type="submit" name="decision" value="request_changes" class="secondary">
              Request changes
            </button>
          </div>
        </form>
        <p class="muted">This link works once, until you decide, and for 7 days at most.</p>
      </main>
    ),
  };
}

/** The thanks for a decision, saying what happens now, with the client's comment. */
export function donePage(
  view: ApprovalPageView,
  decision: 'approved' | 'changes_requested',
  comment: string | null,
): Page {
  const brand = view.brand;
  const title = decision === 'approved' ? 'Thank you: the post is approved' : 'Thank you: your request was sent';
  const text =
    decision === 'approved'
      ? view.status === 'draft'
        ? `${brand} has been told. The post is a draft: it is published once it is scheduled.`
        : view.timePassed
          ? `${brand} has been told, and the post is being published now: its time has passed.`
          : `${brand} has been told, and the post will be published on ${formatTime(view.scheduledAt)}.`
      : `${brand} has been told what you would like changed. They will send you the post again.`;
  return titledPage(
    200,
    title,
    <>
      <p>{text}</p>
      {comment && (
        <>
          <p>Your comment:</p>
          <p class="card text">{comment}</p>
        </>
      )}
    </>,
  );
}
