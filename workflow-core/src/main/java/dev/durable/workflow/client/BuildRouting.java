package dev.durable.workflow.client;

import org.jspecify.annotations.Nullable;

/**
 * Where new runs go.
 *
 * @param currentBuild the current build, or {@code null} when no versioned node is live
 * and none was chosen
 * @param chosen whether an operator chose the current build (else it is the newest build
 * with a live node)
 * @param rampingBuild the ramping build, or {@code null}
 * @param rampingPercent the percentage of new runs the ramping build takes (by workflow
 * id, the same runs every time)
 */
public record BuildRouting(@Nullable String currentBuild, boolean chosen, @Nullable String rampingBuild,
		int rampingPercent) {
}
