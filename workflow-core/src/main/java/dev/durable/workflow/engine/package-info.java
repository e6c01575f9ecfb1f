/**
 * The node: {@link dev.durable.workflow.engine.WorkflowEngine} and its builder (the data
 * source, the registered workflows and activities, the task queues and limits), the
 * settings it runs with, its listeners and interceptors, queues, statistics and the
 * registered workflow types tools built on the engine read. Types are non-null unless
 * marked {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.durable.workflow.engine;

import org.jspecify.annotations.NullMarked;
