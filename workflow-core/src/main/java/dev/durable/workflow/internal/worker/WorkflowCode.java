package dev.durable.workflow.internal.worker;

import java.util.function.Function;

import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.support.Payloads;

/**
 * What runs a workflow's code on this node: the registered workflow types, how their
 * instances are created, and the payload converter of their arguments and results.
 *
 * @param workflows the registered workflow types
 * @param factory how workflow instances are created
 * @param payloads the payload converter
 */
record WorkflowCode(WorkflowRegistry workflows, Function<Class<?>, Object> factory, Payloads payloads) {
}
