/**
 * Every hosted page shows what people write as text: the owner's brand name, a platform user's
 * names and a page's, a post's text and options, a client's comment, and what an app sends the
 * sandbox's permission page (its id, redirect, state and scopes).
 *
 * Each page is rendered as it is sent, twice: once with every such value in plain words, once
 * with markup added to each (`<script>alert(1)</script>"'&` and the like). Read by an HTML
 * parser that follows the standard, as a browser reads it, the second must be the first with
 * only those values changed: the same elements with the same attributes, the markup only as
 * text or inside an attribute's value, intact.
 */
import { describe, expect, it } from 'vitest';
import type { AccountName } from '../../src/modules/connect/index.ts';
import type { ApprovalPageView } from '../../src/modules/posts/index.ts';
import { accountFigures, profileFigures } from '../../src/modules/reports/figures.ts';
import type { ProfileReport } from '../../src/modules/reports/index.ts';
import { PLATFORMS, type Platform } from '../../src/platforms/index.ts';
import { dialogErrorPage, permissionPage } from '../../src/sandbox/authorize-dialog.tsx';
import { decisionPage, donePage } from '../../src/web/approval-views.tsx';
import { choosePagesPage, connectLinkPage, wrongAccountPage } from '../../src/web/connect-views.tsx';
import { invitationPage, linkSentPage, requestLinkPage, signInLinkPage } from '../../src/web/member-views.tsx';
import { type Page, problemPage, renderPage } from '../../src/web/page.tsx';
import { reportPage } from '../../src/web/report-views.tsx';
import { elementsOf, type PageNode, pageNodes, tagsOf, textsOf } from '../helpers/html.ts';

const MARKUP = [
  `<script>alert(1)</script>"'&`,
  `"><img src=x onerror=alert(1)>`,
  `'><svg onload=alert(1)>`,
  '</textarea></title></style></main><b>bold</b><!--',
  '&lt;i&gt;written escaped&amp;amp;&#39;',
];

/** A value a person writes, named by what it is: `«brand»` in plain words. */
type Values = (what: string) => string;

const hrefOf = (platform: Platform) => `/connect/TOKEN/start/${platform}`;

/** An account as the platform names it: a handle and a name, a name alone, or its id alone (which a page then shows). */
function account(v: Values, platform: Platform, who: string, known: 'handle' | 'name' | 'id'): AccountName {
  return {
    platform,
    username: known === 'handle' ? v(`${who} username`) : null,
    displayName: known === 'id' ? null : v(`${who} display name`),
    platformUserId: known === 'id' ? v(`${who} platform user id`) : '17841400000000000',
  };
}

function approvalView(v: Values, status: 'draft' | 'awaiting_approval', timePassed: boolean): ApprovalPageView {
  return {
    brand: v('brand'),
    postId: 'post_01',
    status,
    approvalStatus: 'pending',
    scheduledAt: new Date('2030-05-01T09:30:00Z'),
    timePassed,
    version: '2030-04-01T08:00:00.000Z',
    media: [
      { type: 'image', url: 'https://media.example.test/m/1.jpg?sig=abc' },
      { type: 'video', url: 'https://media.example.test/m/2.mp4?sig=def' },
      { type: 'document', url: 'https://media.example.test/m/3.pdf?sig=ghi' },
    ],
    targets: [
      {
        platform: 'threads',
        platformLabel: 'Threads',
        accountName: v('account name'),
        text: v('post text'),
        options: [['Reply control', v('option value')]],
      },
      { platform: 'instagram', platformLabel: 'Instagram', accountName: null, text: null, options: [] },
    ],
  };
}

/** The thanks after a decision shows the brand and the comment, not the post. */
const brandOnly =
  (v: Values): Values =>
  (what) =>
    what === 'brand' ? v(what) : what;

const form = (v: Values) => ({
  token: 'TOKEN',
  csrf: 'CSRF',
  comment: v('comment'),
  error: 'Write what you would like changed, then choose Request changes.',
  notice: 'The post changed since you opened this page.',
});

/** A report with the names people write: the profile's, an account holder's, a post's text. */
function report(v: Values): ProfileReport {
  const figures = accountFigures(
    {
      figures: { followers: 'followers_count', views: ['views'], engagement: { account: [], post: ['likes'] } },
      metrics: new Map([['views', [1, null, 3, 4]]]),
      postDays: [3],
    },
    2,
  );
  const account = {
    ...figures,
    account: {
      id: 'acc_1',
      platform: 'threads' as const,
      // Named by its display name: a page shows the handle instead when there is one.
      username: null,
      displayName: v('account display name'),
      status: 'connected' as const,
    },
    missingPermission: null,
    syncedAt: null,
  };
  return {
    profile: { id: 'prf_1', name: v('profile name') },
    from: '2026-10-01',
    to: '2026-10-02',
    dates: ['2026-10-01', '2026-10-02'],
    previous: { from: '2026-09-29', to: '2026-09-30' },
    totals: profileFigures([account]),
    accounts: [account],
    topPosts: [
      {
        postId: 'post_1',
        accountId: 'acc_1',
        platform: 'threads',
        source: 'platform',
        text: v('post text'),
        permalink: 'https://www.threads.net/@someone/post/1',
        publishedAt: new Date('2026-10-02T10:00:00Z'),
        engagement: 12,
        figures: { likes: 12 },
      },
    ],
    generatedAt: new Date('2026-11-26T09:00:00Z'),
  };
}

/** Every hosted page, with the values a person writes in it. */
const PAGES: Record<string, (v: Values) => Page> = {
  'report link': (v) =>
    reportPage({
      report: report(v),
      brandName: v('brand'),
      logoUrl: '/reports/TOKEN/logo',
      pdfUrl: '/reports/TOKEN/report.pdf',
    }),
  'connect link': (v) => connectLinkPage({ brand: v('brand'), platforms: PLATFORMS, minutesLeft: 42 }, hrefOf),
  'reconnect link (handle and name)': (v) =>
    connectLinkPage(
      {
        brand: v('brand'),
        platforms: ['threads'],
        minutesLeft: 42,
        reconnects: account(v, 'threads', 'user', 'handle'),
      },
      hrefOf,
    ),
  'reconnect link (a page by its name)': (v) =>
    connectLinkPage(
      {
        brand: v('brand'),
        platforms: ['facebook'],
        minutesLeft: 42,
        reconnects: account(v, 'facebook', 'page', 'name'),
      },
      hrefOf,
    ),
  'reconnect link (an id alone)': (v) =>
    connectLinkPage(
      { brand: v('brand'), platforms: ['tiktok'], minutesLeft: 42, reconnects: account(v, 'tiktok', 'user', 'id') },
      hrefOf,
    ),
  'wrong account (signed in as another)': (v) =>
    wrongAccountPage(
      {
        brand: v('brand'),
        expected: account(v, 'instagram', 'user', 'handle'),
        signedInAs: account(v, 'instagram', 'other user', 'handle'),
        redirectUrl: `https://app.example.test/back?error=account_mismatch&state=${v('state')}`,
      },
      '/connect/TOKEN',
    ),
  'wrong account (page not shared)': (v) =>
    wrongAccountPage(
      {
        brand: v('brand'),
        expected: account(v, 'facebook', 'page', 'name'),
        signedInAs: null,
        redirectUrl: `https://app.example.test/back?state=${v('state')}`,
      },
      '/connect/TOKEN',
    ),
  'page choice': (v) =>
    choosePagesPage({
      brand: v('brand'),
      pages: [
        { id: v('page id'), name: v('page name') },
        { id: v('second page id'), name: v('second page name') },
      ],
      action: '/connect/TOKEN/pages',
      redirectUrl: 'https://app.example.test/back',
      error: 'Choose at least one page.',
    }),
  problem: (v) => problemPage(502, v('problem'), v('problem text'), '/connect/TOKEN'),
  'approval (scheduled)': (v) => decisionPage(approvalView(v, 'awaiting_approval', false), form(v), 422),
  'approval (time passed)': (v) => decisionPage(approvalView(v, 'awaiting_approval', true), form(v)),
  'approval (a draft)': (v) => decisionPage(approvalView(v, 'draft', false), form(v)),
  'approval done (approved)': (v) =>
    donePage(approvalView(brandOnly(v), 'awaiting_approval', false), 'approved', v('comment')),
  'approval done (changes asked)': (v) =>
    donePage(approvalView(brandOnly(v), 'awaiting_approval', false), 'changes_requested', v('comment')),
  'sandbox permission': (v) =>
    permissionPage({
      label: 'Facebook (sandbox): allow access',
      clientParam: 'client_id',
      clientId: v('client id'),
      redirectRaw: v('redirect uri'),
      state: v('state'),
      scopes: [v('scope'), v('another scope')],
      withPages: true,
      action: '/sandbox/www.facebook.com/dialog/oauth',
      error: 'Enter a username: 1 to 30 letters, digits, dots or underscores.',
    }),
  'sandbox error': (v) => dialogErrorPage(v('problem')),
  'member invitation': (v) =>
    invitationPage({
      brand: v('brand'),
      email: v('email'),
      action: '/members/accept/TOKEN',
      csrf: 'C',
      passwords: false,
    }),
  'member invitation (a password refused)': (v) =>
    invitationPage(
      {
        brand: v('brand'),
        email: v('email'),
        action: '/members/accept/TOKEN',
        csrf: 'C',
        passwords: true,
        error: 'A password has 12 to 256 characters.',
      },
      422,
    ),
  'member sign-in link': (v) =>
    signInLinkPage({
      brand: v('brand'),
      email: v('email'),
      action: '/members/sign-in/TOKEN',
      csrf: 'C',
      passwords: true,
    }),
  'member sign-in form': (v) =>
    requestLinkPage({ csrf: 'C', passwords: true, email: v('email'), error: 'Write an e-mail address.' }, 422),
  'member link sent': (v) => linkSentPage(v('email'), 15),
};

const NAMED = /«([a-z ]+)»/g;

/** What the page with plain values becomes when each value has `markup` added: every text and attribute value. */
function withMarkup(node: PageNode, markup: string): PageNode {
  const add = (text: string) => text.replaceAll(NAMED, (named) => `${named}${markup}`);
  if ('text' in node) return { text: add(node.text) };
  if ('comment' in node) return { comment: add(node.comment) };
  return {
    element: node.element,
    attributes: Object.fromEntries(Object.entries(node.attributes).map(([name, value]) => [name, add(value)])),
  };
}

function valuesIn(node: PageNode): string[] {
  if ('text' in node) return [node.text];
  if ('comment' in node) return [node.comment];
  return Object.values(node.attributes);
}

describe('every hosted page', () => {
  for (const [name, build] of Object.entries(PAGES)) {
    describe(name, () => {
      const written = new Set<string>();
      const plain = pageNodes(
        renderPage(
          build((what) => {
            written.add(what);
            return `«${what}»`;
          }),
        ),
      );

      it('shows every value a person wrote', () => {
        expect(written.size).toBeGreaterThan(0);
        const shown = plain.flatMap(valuesIn).join('\n');
        for (const what of written) expect(shown, what).toContain(`«${what}»`);
      });

      for (const markup of MARKUP) {
        it(`shows ${JSON.stringify(markup)} as text, with no element or attribute of its own`, () => {
          const page = renderPage(build((what) => `«${what}»${markup}`));
          expect(pageNodes(page)).toEqual(plain.map((node) => withMarkup(node, markup)));
        });
      }
    });
  }

  it("shows a brand name that is markup alone as the heading's text, with no script element", () => {
    const brand = `<script>alert(1)</script>"'&`;
    const page = renderPage(connectLinkPage({ brand, platforms: ['threads'], minutesLeft: 1 }, hrefOf));
    expect(textsOf(page, 'h1')).toEqual([`Connect your account to <script>alert(1)</script>"'&`]);
    expect(tagsOf(page)).not.toContain('script');
  });
});

describe("the approval page's media", () => {
  it('shows an image, plays a video, and links a document (a PDF) by its place among the media', () => {
    const page = renderPage(
      decisionPage(
        approvalView((what) => what, 'awaiting_approval', false),
        form((w) => w),
      ),
    );
    expect(elementsOf(page, 'img').map((e) => e.attributes.alt)).toEqual(['Image 1 of 3']);
    expect(elementsOf(page, 'video').map((e) => e.attributes['aria-label'])).toEqual(['Video 2 of 3']);
    expect(elementsOf(page, 'a').filter((e) => e.attributes.href?.includes('/m/3.pdf'))).toEqual([
      {
        attributes: { href: 'https://media.example.test/m/3.pdf?sig=ghi', rel: 'noreferrer' },
        text: 'Document (PDF) 3 of 3',
      },
    ]);
  });
});
