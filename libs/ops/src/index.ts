export { createLogger, type Logger } from './logger.ts';
export { counterOf, createInternalServer, createMetrics, dependencyChecks, listen, type ReadinessCheck } from './internal-server.ts';
export { DRAIN_TIMEOUT_MS, onShutdown, announce, orExit, redactUrl } from './lifecycle.ts';
export { NODE_FLAGS, type ProcessKind } from './node-flags.ts';
export { lingerMs, ArrivalRate, type LingerOptions } from './linger.ts';
export { watchDatabase } from './database-watch.ts';
export {
  METRICS,
  METRIC_ROWS,
  counterSpec,
  gaugeSpec,
  histogramSpec,
  metricsOf,
  type MetricEntry,
  type MetricName,
  type MetricRow,
  type MetricType,
} from './metrics-catalogue.ts';
