/**
 * `unum-cdk/testing`: the fault tooling over the local engine
 * (`unum-cdk/local`). Fault schedules for `run`'s `faults` option
 * (`randomFaults(seed)`), the fault plans (seeded random schedules, crash
 * points, the services' failures), one run checked against the execution
 * guarantees, and campaigns: every crash point and pair of points of a
 * workflow (exactly or by a pairwise covering), or many random seeds.
 *
 * The random schedules draw their rates with fast-check, an optional peer
 * dependency of unum-cdk (`npm install --save-dev fast-check`); the
 * crash-point enumeration does without it.
 *
 * @module unum-cdk/testing
 */
export { randomFaults, RandomFaults } from './random-faults';
export type { RandomFaultsOptions } from './random-faults';
export { CrashPointPlan, describePoint, paramsForSeed, planForSeed, RandomPlan, serviceParamsForSeed, ServiceFaultPlan } from './schedule';
export type { CrashPoint, RandomFaultParams, ServiceFaultParams } from './schedule';
export { allPairs, pairwiseCovering } from './crash-point-pairs';
export { checkedRun, profile, referenceRun } from './fault-run';
export type { CheckedRun, CheckedRunOptions, InterventionResult, Profile, RunIntervention } from './fault-run';
export type { Committed, EffectCheck, Expectation } from './checker';
export { enumerateCrashPoints, randomSchedules } from './campaign';
export type { ArmedFaults, CampaignSummary, EnumerationOptions, EnumerationSummary, Failure, RandomOptions, Target } from './campaign';
export type { CallFault, CallInfo, EventFault, ExecutionInfo, FaultPlan, ServiceFault } from '../local/fault-plan';
export type { LocalFaultCheck, LocalFaultSchedule } from '../local/run-workflow';
export { UnumLocalError } from '../local/errors';
