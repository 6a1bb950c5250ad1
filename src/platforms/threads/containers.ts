/** A Threads container's status, which publishing a post and publishing a reply both wait on. */
import { readContainerStatus } from '../meta/containers.ts';
import type { GraphClient } from '../meta/graph-client.ts';
import type { ContainerStatus } from '../types.ts';

export function threadsContainerStatus(graph: GraphClient, accessToken: string, id: string): Promise<ContainerStatus> {
  return readContainerStatus(graph, accessToken, id, { code: 'status', reason: 'error_message', label: 'Threads' });
}
