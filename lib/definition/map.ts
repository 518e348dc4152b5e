import { type IoProps, type JsonataProps, QueryLanguage } from './io';
import { ErrorRulesState } from './error-rules';
import type { IChainable, State } from './state';
import type { Json, JsonPath, PayloadTemplate, Untyped } from './types';

/**
 * Properties of a `Map` state. There is no `parameters`: ASL's Map `Parameters`
 * is the old name of `ItemSelector` (applied per item), so use `itemSelector`.
 */
export interface MapProps extends Omit<IoProps, 'parameters'> {
  /** Path of the array to iterate over in the input. @default '$' */
  readonly itemsPath?: JsonPath;
  /**
   * Builds each item's input; `$$.Map.Item.Value` / `$$.Map.Item.Index` are
   * available (in JSONata, `$states.context.Map.Item.Value` / `.Index`).
   * @default the item
   */
  readonly itemSelector?: PayloadTemplate;
  /** JSONata: the array to iterate over, an array or a `{% %}` expression over `$states.input`. @default the input */
  readonly items?: Json;
  /**
   * At most this many items run at once: the first ones start together, and
   * each completed item starts the next (as Step Functions' MaxConcurrency, to
   * protect a rate-limited service); 0 = all items at once.
   * @default 0
   */
  readonly maxConcurrency?: number;
}

/**
 * Runs the item processor once per element of the array at `itemsPath`, then
 * continues with the array of results in item order (the next state is the
 * fan-in join), placed by the output processing (`resultSelector`,
 * `resultPath`, `outputPath`) as in Step Functions. `R` is the results'
 * array type; `O` the state's output, when the output processing makes
 * another. `addRetry` / `addCatch` apply to the whole state: an item error no
 * rule inside handles fails it once, and a Retry runs every item again.
 * Exported as `Map` and `MapState` (to avoid shadowing the global).
 */
export class MapState<I = Untyped, R extends readonly unknown[] = Untyped[], O = R> extends ErrorRulesState<I, O> {
  readonly kind = 'map' as const;
  private processor?: { readonly start: State | undefined };

  constructor(id: string, readonly props: MapProps = {}) {
    super(id);
  }

  /** A Map in JSONata mode (aws-cdk-lib's `Map.jsonata`): `items`, `itemSelector` and `outputs` (over `$states.result`, the results) are JSONata. */
  static jsonata<I = Untyped, R extends readonly unknown[] = Untyped[], O = R>(id: string, props: Omit<JsonataProps<MapProps>, 'itemsPath' | 'arguments'> = {}): MapState<I, R, O> {
    return new MapState<I, R, O>(id, { ...props, queryLanguage: QueryLanguage.JSONATA });
  }

  /** Start of the item processor, if set. */
  get processorState(): State | undefined {
    return this.processor?.start;
  }

  /** True when `.itemProcessor()` was called (even with an empty chain). */
  get hasProcessor(): boolean {
    return this.processor !== undefined;
  }

  /** Sets the states that process one item; their final output is the item's result. */
  itemProcessor(processor: IChainable<Untyped, R[number]>): this {
    if (this.processor !== undefined) {
      this.misuses.push({ field: 'itemProcessor', message: `the item processor is already set (to '${this.processor.start?.id}')` });
      return this;
    }
    processor.startState?.addIncoming(this);
    this.processor = { start: processor.startState };
    return this;
  }
}
