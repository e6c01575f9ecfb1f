/**
 * Test kit: the shared embedded PostgreSQL,
 * {@link dev.durable.workflow.test.TestWorkflowEnvironment} with time skipping, the
 * {@link dev.durable.workflow.test.WorkflowTest @WorkflowTest} JUnit 5 extension and the
 * {@link dev.durable.workflow.test.WorkflowReplayer}.
 */
@NullMarked
package dev.durable.workflow.test;

import org.jspecify.annotations.NullMarked;
