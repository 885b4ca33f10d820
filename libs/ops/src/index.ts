export { createLogger, type Logger } from './logger.ts';
export { createInternalServer, createMetrics, listen, type ReadinessCheck } from './internal-server.ts';
export { onShutdown, announce } from './lifecycle.ts';
