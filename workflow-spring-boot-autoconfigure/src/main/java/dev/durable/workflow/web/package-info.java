/**
 * The generated REST endpoints for runs, messages, schedules, activity completion and
 * queues, their problem details, who may call them (WebAccess,
 * OperationAccessInterceptor) and the dashboard page.
 */
@NullMarked
package dev.durable.workflow.web;

import org.jspecify.annotations.NullMarked;
