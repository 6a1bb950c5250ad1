import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  defineWorkflow,
  IllegalTransitionError,
  ruleOf,
  stateDiagram,
  type Workflow,
} from '../../src/jobs/workflow.ts';
import { accessWorkflow } from '../../src/modules/accounts/access-workflow.ts';
import { replyWorkflow } from '../../src/modules/comments/reply-workflow.ts';
import { historyWorkflow } from '../../src/modules/insights/history-workflow.ts';
import { targetWorkflow } from '../../src/modules/posts/target-workflow.ts';
import { sendWorkflow } from '../../src/modules/reports/sends.ts';

const lamp = {
  name: 'lamp',
  states: { off: { power: 'off' }, on: { power: 'on' }, broken: { power: null } },
  initial: ['off'],
  transitions: {
    switch_on: { from: ['off'], to: 'on' },
    switch_off: { from: ['on'], to: 'off' },
    break: { from: ['off', 'on'], to: 'broken' },
    dim: { from: ['on'] },
  },
} as const;

describe('a workflow declared as data', () => {
  it('refuses a transition naming a state it does not have, or two states that read alike', () => {
    expect(() =>
      defineWorkflow({
        ...lamp,
        transitions: { ...lamp.transitions, fix: { from: ['broken'], to: 'mended' } },
      } as never),
    ).toThrow(/transition fix names no state or unknown ones \(mended\)/);
    expect(() => defineWorkflow({ ...lamp, initial: ['lit'] } as never)).toThrow(/unknown initial lit/);
    expect(() => defineWorkflow({ ...lamp, states: { ...lamp.states, broken: { power: 'on' } } })).toThrow(
      /two states read alike/,
    );
  });

  it('makes a move only from the states its transition allows: anything else is an IllegalTransitionError', () => {
    const workflow = defineWorkflow(lamp);
    expect(ruleOf(workflow, 'break')).toEqual({ from: ['off', 'on'], to: 'broken' });
    expect(ruleOf(workflow, 'break', ['on'])).toEqual({ from: ['on'], to: 'broken' });
    expect(() => ruleOf(workflow, 'switch_on', ['on'])).toThrow(IllegalTransitionError);
    expect(() => ruleOf(workflow, 'switch_on', ['on'])).toThrow('workflow lamp: switch_on is not allowed from on');
    expect(() => ruleOf(workflow as Workflow<string, string>, 'explode')).toThrow(
      'workflow lamp has no transition explode',
    );
  });

  it('draws itself as a state diagram: every initial state and every move', () => {
    expect(stateDiagram(defineWorkflow(lamp))).toBe(
      [
        'stateDiagram-v2',
        '    [*] --> off',
        '    off --> on: switch_on',
        '    on --> off: switch_off',
        '    off --> broken: break',
        '    on --> broken: break',
        '    on --> on: dim',
      ].join('\n'),
    );
  });
});

describe('the diagrams in the docs', () => {
  const documented: [string, Workflow<string, string>][] = [
    ['docs/posts.md', targetWorkflow],
    ['docs/comments.md', replyWorkflow],
    ['docs/connect.md', accessWorkflow],
    ['docs/insights.md', historyWorkflow],
    ['docs/reports.md', sendWorkflow],
  ];
  it.each(documented)('%s shows the workflow as its table declares it', async (file, workflow) => {
    const text = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8');
    const block = new RegExp(`<!-- workflow: ${workflow.name} -->\\n\`\`\`mermaid\\n([\\s\\S]*?)\\n\`\`\``).exec(text);
    // On a difference, paste the expected block into the file.
    expect(block?.[1], `${file}: the diagram of ${workflow.name}`).toBe(stateDiagram(workflow));
  });
});
