/**
 * Auto-configuration of the generated REST endpoints and the dashboard.
 */
@NullMarked
package dev.durable.workflow.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
