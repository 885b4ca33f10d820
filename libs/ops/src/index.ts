export { createLogger, type Logger } from './logger.ts';
export { counterOf, createInternalServer, createMetrics, dependencyChecks, listen, type ReadinessCheck } from './internal-server.ts';
export { onShutdown, announce, orExit, redactUrl } from './lifecycle.ts';
