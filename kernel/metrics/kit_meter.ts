import { type Meter, type MeterProvider, metrics } from "@opentelemetry/api";

/**
 * Where a component's metrics go. Without either, the global meter provider's meter `kit`, read
 * when the component is built: register the SDK's provider before composing the application (the
 * metrics API has no proxy, so a provider registered later is not seen). Without an SDK, every
 * instrument is a no-op.
 */
export interface MetricsOptions {
  /** The provider of the meter `kit`. */
  readonly meterProvider?: MeterProvider;
  /** The meter itself (over `meterProvider`). */
  readonly meter?: Meter;
}

/**
 * The meter of kit's metrics: `options.meter`, else the meter `kit` of `options.meterProvider` or
 * of the global provider.
 *
 * @example
 * ```ts
 * import { kitMeter } from "@kit/kernel/internal";
 * const meter = kitMeter(); // a no-op meter until an SDK's provider is registered
 * meter.createCounter("kit.example.count");
 * ```
 */
export function kitMeter(options: MetricsOptions = {}): Meter {
  return options.meter ?? (options.meterProvider ?? metrics).getMeter("kit");
}
