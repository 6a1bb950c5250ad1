/** How Threads counts a post's text, where the sandbox has always found it (threads/text.ts has it). */
export { THREADS_MAX_TEXT, threadsTextLength } from './threads/text.ts';
