/**
 * What the test kits need of the engine beyond the public API: a settable clock, a way to
 * wait until a node is quiet, hooks into its steps, and replaying a recorded history. For
 * tests and test kits, not for application code.
 */
@NullMarked
package dev.durable.workflow.testsupport;

import org.jspecify.annotations.NullMarked;
