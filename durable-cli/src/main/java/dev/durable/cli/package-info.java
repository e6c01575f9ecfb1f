/**
 * The {@code durable} command-line tool: lists, inspects and operates the workflows,
 * batches and schedules of a running application through its REST API
 * ({@link dev.durable.cli.DurableCli}).
 */
@NullMarked
package dev.durable.cli;

import org.jspecify.annotations.NullMarked;
