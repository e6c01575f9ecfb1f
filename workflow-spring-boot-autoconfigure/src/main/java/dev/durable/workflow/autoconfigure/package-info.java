/**
 * Auto-configuration of the durable workflow engine: the engine, its client and
 * lifecycle, the configuration properties ({@code durable.workflow.*}) and the scanning
 * of workflow and activity classes.
 */
@NullMarked
package dev.durable.workflow.autoconfigure;

import org.jspecify.annotations.NullMarked;
