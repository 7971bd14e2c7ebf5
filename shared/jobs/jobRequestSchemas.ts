import { z } from 'zod';
import { DAILY_TOKEN_BUDGET_LIMITS, MIN_PROMPTS_LIMITS } from './backgroundJobs';
import { LLM_BACKEND_CHOICES } from './llmSettings';

/** Argument schemas of the job and LLM-settings requests, validated at the boundary like every request. */

const configRootSchema = z.string().min(1).max(4096);
/** A folder name under `projects/`: no separators, no dot segments, no NUL. */
const slugSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'must be a single folder name');

/** Which backend runs a job or a connection test; absent: the one Settings chose. */
export const backendSchema = z.enum(['api', 'claude-code']);

export const jobIdSchema = z.strictObject({ jobId: z.string().min(1).max(100) });

export const jobTargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('project'), configRoot: configRootSchema, slug: slugSchema }),
  // Matched against the agent memories the engine discovered; never used as a path on its own.
  z.strictObject({ kind: z.literal('agent'), dir: z.string().min(1).max(4096) }),
]);

const turnSchema = z.number().int().min(1).max(1_000_000);

export const extractionSourceSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('session'),
      configRoot: configRootSchema,
      slug: slugSchema,
      sessionId: z.string().regex(/^[0-9a-f-]{36}$/, 'must be a session id'),
      fromTurn: turnSchema.optional(),
      toTurn: turnSchema.optional(),
    })
    .refine((s) => s.fromTurn === undefined || s.toTurn === undefined || s.fromTurn <= s.toTurn, 'fromTurn must not be after toTurn'),
  z.strictObject({ kind: z.literal('recent'), configRoot: configRootSchema, slug: slugSchema, count: z.number().int().min(1).max(50) }),
]);

const proposalPathSchema = z.string().min(1).max(1024);

const proposalDecisionSchema = z.discriminatedUnion('decision', [
  z.strictObject({ path: proposalPathSchema, decision: z.literal('accept') }),
  z.strictObject({ path: proposalPathSchema, decision: z.literal('reject') }),
  z.strictObject({
    path: proposalPathSchema,
    decision: z.literal('hunks'),
    hunks: z.array(z.number().int().min(0)).max(10_000).readonly(),
  }),
  z.strictObject({ path: proposalPathSchema, decision: z.literal('edit'), content: z.string().max(250_000) }),
]);

export const applyJobSchema = z.strictObject({
  jobId: z.string().min(1).max(100),
  decisions: z.array(proposalDecisionSchema).max(1000),
});

export const llmSettingsPatchSchema = z.strictObject({
  model: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9._:@/-]+$/, 'must be a model name')
    .optional(),
  baseUrl: z.string().max(2048).nullable().optional(),
  maxCostUsdPerJob: z.number().positive().max(1000).optional(),
  backend: z.enum(LLM_BACKEND_CHOICES).optional(),
  claudePath: z.string().max(4096).nullable().optional(),
});

export const connectionTestSchema = z.strictObject({ via: backendSchema.optional() });

export const apiKeySchema = z.strictObject({ key: z.string().min(1).max(512) });

export const backgroundSettingsPatchSchema = z.strictObject({
  reviewedDreams: z.strictObject({ mode: z.enum(['off', 'all', 'chosen']) }).optional(),
  project: z.strictObject({ configRoot: configRootSchema, slug: slugSchema, reviewedDreams: z.boolean() }).optional(),
  autoExtraction: z
    .strictObject({
      enabled: z.boolean().optional(),
      minPrompts: z.number().int().min(MIN_PROMPTS_LIMITS.min).max(MIN_PROMPTS_LIMITS.max).optional(),
    })
    .optional(),
  dailyTokenBudget: z.number().int().min(DAILY_TOKEN_BUDGET_LIMITS.min).max(DAILY_TOKEN_BUDGET_LIMITS.max).optional(),
});

export const configRootArgsSchema = z.strictObject({ configRoot: configRootSchema });
