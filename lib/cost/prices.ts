/**
 * The one table of AWS prices the cost report uses: us-east-1, on-demand, no
 * free tier, in USD.
 *
 * Dated 2026-11-22. Sources: the public pricing pages "AWS Lambda Pricing"
 * (Arm price, first duration tier), "Amazon DynamoDB Pricing for On-Demand
 * Capacity" (after the 2024-11-01 on-demand price cut of 50%), and "AWS Step
 * Functions Pricing" (Standard workflows; Express workflows, first duration
 * tier), the durable-functions section of "AWS Lambda Pricing" (durable
 * operations; its data-written and data-retained charges are left out), and
 * "Amazon EventBridge Pricing" (Scheduler: scheduled invocations; its API calls are free). This machine cannot reach those pages: the figures are the ones the
 * project recorded on that date. When a price changes, change it here and the
 * date above, and nowhere else.
 */
export const PRICES = {
  date: '2026-11-22',
  region: 'us-east-1',
  lambda: {
    perRequest: 0.20 / 1_000_000,
    /** arm64, first 7.5 billion GB-seconds a month. */
    perGbSecond: 0.0000133334,
    /** Duration is billed in 1 ms increments. */
    granularityMs: 1,
  },
  dynamodb: {
    perWriteRequestUnit: 0.625 / 1_000_000,
    perReadRequestUnit: 0.125 / 1_000_000,
  },
  stepFunctionsStandard: {
    perStateTransition: 0.025 / 1_000,
  },
  stepFunctionsExpress: {
    perRequest: 1.00 / 1_000_000,
    /** First 1,000 GB-hours a month; later tiers are cheaper, so beyond it this overestimates. */
    perGbSecond: 0.00001667,
    firstTierGbSeconds: 1_000 * 3_600,
    minimumMemoryMb: 64,
    granularityMs: 100,
  },
  eventBridgeScheduler: {
    /**
     * Every scheduled invocation (a Wait's wake-up, a callback's timeout or heartbeat check), beyond the 14
     * million a month of the free tier; creating, reading and deleting schedules is free. "Amazon EventBridge
     * Pricing", Scheduler section (https://aws.amazon.com/eventbridge/pricing/); the AWS Price List (service
     * AWSEvents, usage type ScheduledInvocation) gives the same free tier, $1.00 per million in us-east-1.
     */
    perScheduledInvocation: 1.00 / 1_000_000,
  },
  lambdaDurableFunctions: {
    /** Every durable operation: the execution's start, each step, wait and callback. */
    perDurableOperation: 8.00 / 1_000_000,
  },
} as const;

export type Prices = typeof PRICES;
