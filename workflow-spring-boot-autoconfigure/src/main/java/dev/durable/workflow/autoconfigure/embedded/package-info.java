/**
 * Auto-configuration of the embedded PostgreSQL server for development.
 */
@NullMarked
package dev.durable.workflow.autoconfigure.embedded;

import org.jspecify.annotations.NullMarked;
