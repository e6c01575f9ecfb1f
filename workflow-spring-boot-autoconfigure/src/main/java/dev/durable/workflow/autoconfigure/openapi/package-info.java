/**
 * The OpenAPI description of the generated REST endpoints, contributed to springdoc when
 * the application has it: the operations per workflow type and handler, with schemas from
 * their Java types and the problem responses each endpoint really answers.
 */
@NullMarked
package dev.durable.workflow.autoconfigure.openapi;

import org.jspecify.annotations.NullMarked;
