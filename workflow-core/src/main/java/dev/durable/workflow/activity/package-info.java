/**
 * The API of activity code: the {@link dev.durable.workflow.activity.Activity @Activity}
 * annotation, the {@link dev.durable.workflow.activity.ActivityContext} of the attempt
 * under way (heartbeats, asynchronous completion, its info), the options workflow code
 * calls an activity with, and the
 * {@link dev.durable.workflow.activity.ActivityTransaction} a transactional activity
 * commits with its outcome. Types are non-null unless marked
 * {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.durable.workflow.activity;

import org.jspecify.annotations.NullMarked;
