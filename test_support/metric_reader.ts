/**
 * The metric reader of the tests that read kit's metrics: it collects when asked
 * (`reader.collect()`) and flushes and shuts down at once.
 *
 * @module
 */
import { MetricReader } from "@opentelemetry/sdk-metrics";

/** A metric reader that collects on demand, for a test's `MeterProvider`. */
export class TestReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}
