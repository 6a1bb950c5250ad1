/**
 * A post's rich text ("Rich Text Facets", app.bsky.richtext.facet): the links, mentions,
 * hashtags and cashtags of its text, each with its byte range in the text's UTF-8, found as
 * Bluesky's own app finds them (@atproto/api's RichText), so a post reads the same whoever
 * published it. A mention names the DID its handle resolves to; one whose handle does not
 * resolve stays plain text, as Bluesky's own app leaves it.
 */
import type { Facet } from '@atproto/api';
import { isValidHandle, normalizeHandle } from '@atproto/syntax';

/** The DID of `handle`, or null when it resolves to none. */
type ResolveHandle = (handle: string) => Promise<string | null>;

/** The mention's handle as it is resolved, or null when the detected text is not a handle. */
function handleOf(detected: string): string | null {
  const handle = normalizeHandle(detected);
  return isValidHandle(handle) ? handle : null;
}

/** The facets of `text`, each mentioned handle resolved once with `resolve`. */
export async function facetsOf(text: string, resolve: ResolveHandle): Promise<Facet[]> {
  // The library is Bluesky's whole client (its lexicons, about 2 MB bundled): loaded at the first
  // post rather than parsed and run at every start of the service.
  const { AppBskyRichtextFacet, RichText } = await import('@atproto/api');
  const rich = new RichText({ text });
  rich.detectFacetsWithoutResolution();
  const detected = rich.facets ?? [];
  const dids = new Map<string, string | null>();
  const facets: Facet[] = [];
  for (const facet of detected) {
    const features: Facet['features'] = [];
    for (const feature of facet.features) {
      if (!AppBskyRichtextFacet.isMention(feature)) {
        features.push(feature);
        continue;
      }
      // Detection leaves the handle as typed where the DID goes, to be resolved by the caller.
      const handle = handleOf(feature.did);
      if (handle === null) continue;
      if (!dids.has(handle)) dids.set(handle, await resolve(handle));
      const did = dids.get(handle);
      if (did !== null && did !== undefined) features.push({ ...feature, did });
    }
    if (features.length > 0) facets.push({ ...facet, features });
  }
  return facets;
}
