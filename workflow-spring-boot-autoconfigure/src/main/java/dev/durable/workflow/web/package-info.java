/**
 * The generated REST endpoints for runs, messages and schedules, their problem details, and the
 * dashboard page.
 */
@NullMarked
package dev.durable.workflow.web;

import org.jspecify.annotations.NullMarked;
