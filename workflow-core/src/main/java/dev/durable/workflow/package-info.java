/**
 * The API of workflow code: the {@link dev.durable.workflow.Workflow @Workflow}
 * annotation and its handler annotations, {@link dev.durable.workflow.Workflows} (the
 * calls workflow code makes: activities, timers, children, signals to other runs),
 * promises, sagas, cancellation scopes, locks, semaphores and streams, and the options of
 * children. The other roles have packages of their own: {@code activity} for activity
 * code, {@code failure} for what crosses activity, child and update boundaries,
 * {@code payload} for how values are stored, {@code client} for starting and reaching
 * runs, {@code engine} for the node that runs them, {@code testsupport} for the test kit.
 * Types are non-null unless marked {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.durable.workflow;

import org.jspecify.annotations.NullMarked;
