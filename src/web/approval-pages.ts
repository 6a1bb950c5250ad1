/**
 * The hosted approval page: what an approval link opens. The client, without an account, sees
 * the post as each account will publish it and chooses Approve or Request changes (with a
 * comment). It works without JavaScript: one form, posted back to the same address. The rules
 * are the posts module's (modules/posts/approval.ts); this file renders and checks the form.
 *
 * The form carries a CSRF token: an HMAC of a random value kept in a SameSite=Lax cookie,
 * so a page of another site cannot post a decision even where it knows a link.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { now } from '../clock.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import { isMultiLineText } from '../http/schemas.ts';
import { textProblem } from '../http/validation.ts';
import {
  APPROVAL_LINK_LIFETIME_MS,
  type ApprovalPageDeps,
  type ApprovalPageView,
  approvalPagePath,
  approvalPageView,
  decideApproval,
  lookUpApprovalLink,
  MAX_APPROVAL_COMMENT_LENGTH,
} from '../modules/posts/index.ts';
import { field } from './form.ts';
import { escapeHtml, sendPage, sendProblemPage } from './html.ts';

const COOKIE = 'sb_approval';
const COOKIE_PATH = '/approve';

function csrfToken(secretKey: Buffer, cookie: string, token: string): string {
  return createHmac('sha256', secretKey).update(`approval-form\u0000${cookie}\u0000${token}`).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const CLOSED: Record<'used' | 'expired' | 'revoked' | 'unknown', { status: number; title: string; text: string }> = {
  unknown: {
    status: 404,
    title: 'This link does not work',
    text: 'The link is incomplete or was never valid. Ask whoever sent it for a new one.',
  },
  used: {
    status: 410,
    title: 'This post has been decided on already',
    text: 'This link was used to decide on the post. If you want to change your answer, ask whoever sent it for a new link.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    text: 'Approval links work for 7 days. Ask whoever sent it for a new one.',
  },
  revoked: {
    status: 410,
    title: 'This link was withdrawn',
    text: 'Whoever sent it withdrew the link. Ask them for a new one if there is still something to approve.',
  },
};

function closedPage(reply: FastifyReply, state: keyof typeof CLOSED) {
  const page = CLOSED[state];
  return sendProblemPage(reply, page.status, page.title, page.text);
}

function formatTime(at: Date): string {
  // UTC, spelled out: the page has no script to show the reader's own zone.
  return `${at.toISOString().slice(0, 16).replace('T', ' at ')} UTC`;
}

function targetSection(target: ApprovalPageView['targets'][number]): string {
  const who = target.accountName ? ` · ${escapeHtml(target.accountName)}` : '';
  const text = target.text
    ? `<p class="text">${escapeHtml(target.text)}</p>`
    : '<p class="muted">No text: the media alone.</p>';
  const options =
    target.options.length === 0
      ? ''
      : `<dl>${target.options.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
  return `<section class="card"><h2>${escapeHtml(target.platformLabel)}${who}</h2>${text}${options}</section>`;
}

function mediaList(view: ApprovalPageView): string {
  if (view.media.length === 0) return '';
  const items = view.media.map((m, i) =>
    m.type === 'image'
      ? `<img src="${escapeHtml(m.url)}" alt="Image ${i + 1} of ${view.media.length}">`
      : `<video src="${escapeHtml(m.url)}" controls preload="metadata" aria-label="Video ${i + 1} of ${view.media.length}"></video>`,
  );
  return `<div class="media">${items.join('')}</div>`;
}

interface FormState {
  token: string;
  csrf: string;
  comment?: string;
  error?: string;
  notice?: string;
}

function decisionPage(reply: FastifyReply, view: ApprovalPageView, form: FormState, status = 200) {
  const when =
    view.status === 'draft'
      ? '<p>It is a draft: approving it does not publish it. It is published once it is scheduled, without asking you again.</p>'
      : view.timePassed
        ? `<p><strong>Its time, ${escapeHtml(formatTime(view.scheduledAt))}, has passed:</strong> if you approve it, it is published at once.</p>`
        : `<p>To be published on ${escapeHtml(formatTime(view.scheduledAt))}, once you approve it.</p>`;
  const mediaSources = view.media.map((m) => new URL(m.url).origin);
  return sendPage(reply, {
    status,
    title: `Approve a post for ${view.brand}`,
    mediaSources,
    body: `<main>
<h1>${escapeHtml(view.brand)} asks you to approve a post</h1>
${form.notice ? `<p class="error" role="status">${escapeHtml(form.notice)}</p>` : ''}
${when}
${mediaList(view)}
${view.targets.map(targetSection).join('\n')}
<form method="post" action="${escapeHtml(approvalPagePath(form.token))}">
<input type="hidden" name="csrf" value="${escapeHtml(form.csrf)}">
<input type="hidden" name="version" value="${escapeHtml(view.version)}">
<label for="comment">Comment (needed to request changes)</label>
${form.error ? `<p class="error" role="alert" id="comment-error">${escapeHtml(form.error)}</p>` : ''}
<textarea id="comment" name="comment" maxlength="${MAX_APPROVAL_COMMENT_LENGTH}"${form.error ? ' aria-describedby="comment-error"' : ''}>${escapeHtml(form.comment ?? '')}</textarea>
<div class="buttons">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="request_changes" class="secondary">Request changes</button>
</div>
</form>
<p class="muted">This link works once, until you decide, and for 7 days at most.</p>
</main>`,
  });
}

function donePage(
  reply: FastifyReply,
  view: ApprovalPageView,
  decision: 'approved' | 'changes_requested',
  comment: string | null,
) {
  const brand = view.brand;
  const said = comment ? `<p>Your comment:</p><p class="card text">${escapeHtml(comment)}</p>` : '';
  const title = decision === 'approved' ? 'Thank you: the post is approved' : 'Thank you: your request was sent';
  const text =
    decision === 'approved'
      ? view.status === 'draft'
        ? `${brand} has been told. The post is a draft: it is published once it is scheduled.`
        : view.timePassed
          ? `${brand} has been told, and the post is being published now: its time has passed.`
          : `${brand} has been told, and the post will be published on ${formatTime(view.scheduledAt)}.`
      : `${brand} has been told what you would like changed. They will send you the post again.`;
  return sendPage(reply, {
    status: 200,
    title,
    body: `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${said}</main>`,
  });
}

export function approvalPages(deps: ApprovalPageDeps): FastifyPluginAsync {
  /** The browser's form cookie: the one it has, or a new one set on this answer. */
  function formCookie(request: FastifyRequest, reply: FastifyReply): string {
    const existing = request.cookies[COOKIE];
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const value = randomBytes(32).toString('base64url');
    reply.setCookie(COOKIE, value, {
      path: COOKIE_PATH,
      httpOnly: true,
      secure: publicBaseUrl(deps.config, request).startsWith('https:'),
      // Lax: sent when the client opens a link from an e-mail (so a second link opened keeps the
      // first tab's form valid), never with a POST another site starts, so its forms carry no valid pair.
      sameSite: 'lax',
      maxAge: APPROVAL_LINK_LIFETIME_MS / 1000,
    });
    return value;
  }

  return async (app) => {
    await app.register(formbody);

    app.get<{ Params: { token: string } }>('/approve/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const lookup = await lookUpApprovalLink(deps.db, token);
      if (lookup.kind === 'unknown') return closedPage(reply, 'unknown');
      if (lookup.kind === 'closed') return closedPage(reply, lookup.state);
      const view = await approvalPageView(deps, lookup.post, now(), publicBaseUrl(deps.config, request));
      if (lookup.post.approvalStatus === 'approved' || !['draft', 'awaiting_approval'].includes(lookup.post.status)) {
        return sendProblemPage(
          reply,
          409,
          'There is nothing to approve any more',
          `The post is ${lookup.post.status.replace('_', ' ')}.`,
        );
      }
      const cookie = formCookie(request, reply);
      return decisionPage(reply, view, { token, csrf: csrfToken(deps.secretKey, cookie, token) });
    });

    app.post<{ Params: { token: string } }>('/approve/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const form = (request.body ?? {}) as Record<string, unknown>;
      const cookie = request.cookies[COOKIE];
      const sent = field(form.csrf);
      if (!cookie || !sent || !sameText(sent, csrfToken(deps.secretKey, cookie, token))) {
        return sendProblemPage(
          reply,
          403,
          'Your answer could not be confirmed',
          'It did not come from the approval page in this browser. Open your link again and decide there.',
        );
      }
      const choice = field(form.decision);
      const decision = choice === 'approve' ? 'approved' : choice === 'request_changes' ? 'changes_requested' : null;
      const comment = (field(form.comment) ?? '').replace(/\r\n/g, '\n').trim();
      const lookup = await lookUpApprovalLink(deps.db, token);
      if (lookup.kind === 'unknown') return closedPage(reply, 'unknown');
      if (lookup.kind === 'closed') return closedPage(reply, lookup.state);
      const again = async (status: number, state: Partial<FormState>) =>
        decisionPage(
          reply,
          await approvalPageView(deps, lookup.post, now(), publicBaseUrl(deps.config, request)),
          { token, csrf: sent, comment, ...state },
          status,
        );
      if (decision === null) return await again(422, { error: 'Choose Approve or Request changes.' });
      if (decision === 'changes_requested' && comment === '') {
        return await again(422, { error: 'Write what you would like changed, then choose Request changes.' });
      }
      // The API's rule for multi-line text: no control characters but line breaks and tabs (and
      // so no NUL, which PostgreSQL cannot store), no unpaired surrogate.
      if (textProblem(comment) !== undefined || !isMultiLineText(comment)) {
        return await again(422, {
          error: 'The comment holds characters that are not text (control characters); remove them, then decide again.',
        });
      }
      if (comment.length > MAX_APPROVAL_COMMENT_LENGTH) {
        return await again(422, {
          error: `The comment is too long: at most ${MAX_APPROVAL_COMMENT_LENGTH} characters.`,
        });
      }
      const outcome = await decideApproval(deps.db, token, {
        decision,
        comment: comment === '' ? null : comment,
        version: field(form.version) ?? '',
      });
      switch (outcome.kind) {
        case 'decided':
          request.log.info({ post_id: outcome.post.id, decision }, 'client decided on a post through an approval link');
          return donePage(
            reply,
            await approvalPageView(deps, outcome.post, now(), publicBaseUrl(deps.config, request)),
            decision,
            comment || null,
          );
        case 'closed':
          return closedPage(reply, outcome.state);
        case 'changed': {
          const fresh = await lookUpApprovalLink(deps.db, token);
          if (fresh.kind !== 'open') return closedPage(reply, fresh.kind === 'closed' ? fresh.state : 'unknown');
          return decisionPage(
            reply,
            await approvalPageView(deps, fresh.post, now(), publicBaseUrl(deps.config, request)),
            {
              token,
              csrf: sent,
              comment,
              notice:
                'The post changed since you opened this page. Here it is as it is now: please look again, then decide.',
            },
            409,
          );
        }
        case 'not_awaiting':
          return sendProblemPage(
            reply,
            409,
            'There is nothing to approve any more',
            `The post is ${outcome.post.status.replace('_', ' ')}.`,
          );
      }
    });
  };
}
