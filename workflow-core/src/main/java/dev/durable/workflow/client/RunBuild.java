package dev.durable.workflow.client;

import org.jspecify.annotations.Nullable;

/**
 * The build a run belongs to, when nodes have build ids (see
 * {@link dev.durable.workflow.VersioningBehavior}).
 *
 * @param buildId the build that started the run, or, for a pinned run, the only build
 * that runs its workflow tasks
 * @param pinned whether the run is pinned to that build
 * @param waitingForBuild whether the run is pinned and no node of its build is live: it
 * waits until one comes back or an operator moves it ({@link WorkflowHandle#moveToBuild})
 * @param moveRefused why the last move of the run to another build was refused (its
 * history does not replay there), or {@code null}
 */
public record RunBuild(String buildId, boolean pinned, boolean waitingForBuild, @Nullable String moveRefused) {
}
