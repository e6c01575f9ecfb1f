/**
 * Two builds of one application for {@code WorkerVersioningIT}: {@code v1} and {@code v2}
 * register the same workflow types with different code, each from its own application
 * class (its package is the one the starter scans).
 */
@NullMarked
package dev.durable.workflow.versioning.it;

import org.jspecify.annotations.NullMarked;
