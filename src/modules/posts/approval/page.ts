/**
 * What the hosted approval page shows of a post, as data for web/approval-pages.ts to render:
 * the owner's brand, the time, the media, and the post as each account will publish it (its
 * platform's text and options). Names and texts here are other people's: the page escapes them.
 */
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/connection.ts';
import { type Platform, platformInfo } from '../../../platforms/index.ts';
import { accountById } from '../../accounts/index.ts';
import { brandNameOf } from '../../connect/index.ts';
import { findMedia, type MediaItem, type MediaUrlContext, mediaFetchUrl } from '../../media/index.ts';
import { platformOptions, targetText } from '../options.ts';
import type { ApprovalStatus, Post, PostStatus } from '../tables.ts';
import { decideApproval, lookUpApprovalLink, targetsForApproval } from './links.ts';

export { decideApproval, lookUpApprovalLink };

export interface ApprovalPageDeps {
  db: Db;
  secretKey: Buffer;
  config: MediaUrlContext['config'] & Pick<Config, 'publicUrl'>;
}

export interface ApprovalTargetView {
  platform: Platform;
  platformLabel: string;
  /** `@username`, or the display name, or null when the platform gave neither. */
  accountName: string | null;
  text: string | null;
  /** The platform's options, as `[label, value]` (values as text). */
  options: [string, string][];
}

export interface ApprovalPageView {
  brand: string;
  postId: string;
  status: PostStatus;
  approvalStatus: ApprovalStatus | null;
  scheduledAt: Date;
  /** The post's time has passed: approving publishes it at once. */
  timePassed: boolean;
  /** The version the client decides on (the post's `updated_at`). */
  version: string;
  media: { type: MediaItem['type']; url: string }[];
  targets: ApprovalTargetView[];
}

function optionText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An option's name as a person reads it: `reply_control` is "Reply control". */
function optionLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The page's view of `post`, with media at signed, expiring URLs for the address the browser
 * reached the service at (`base`).
 */
export async function approvalPageView(
  deps: ApprovalPageDeps,
  post: Post,
  at: Date,
  base: string,
): Promise<ApprovalPageView> {
  const targets = await targetsForApproval(deps.db, post.id);
  const accounts = await Promise.all(targets.map((t) => accountById(deps.db, t.accountId)));
  const items = await findMedia(deps.db, post.ownerId, post.mediaIds);
  const byId = new Map(items.map((item) => [item.id, item]));
  const context: MediaUrlContext = { db: deps.db, secretKey: deps.secretKey, config: deps.config };
  const media = await Promise.all(
    post.mediaIds.flatMap((id) => {
      const item = byId.get(id);
      return item ? [mediaFetchUrl(context, item, { base }).then((url) => ({ type: item.type, url }))] : [];
    }),
  );
  return {
    brand: await brandNameOf(deps.db, post.ownerId),
    postId: post.id,
    status: post.status,
    approvalStatus: post.approvalStatus,
    scheduledAt: post.scheduledAt,
    timePassed: post.scheduledAt.getTime() <= at.getTime(),
    version: post.updatedAt.toISOString(),
    media,
    targets: targets.map((target, i) => {
      const account = accounts[i];
      return {
        platform: target.platform,
        platformLabel: platformInfo(target.platform).label,
        accountName: account?.username ? `@${account.username}` : (account?.displayName ?? null),
        text: targetText(post.text, post.platformOptions, target.platform) ?? null,
        options: Object.entries(platformOptions(post.platformOptions, target.platform)).map(([name, value]) => [
          optionLabel(name),
          optionText(value),
        ]),
      };
    }),
  };
}
