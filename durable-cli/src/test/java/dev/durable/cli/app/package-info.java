/** The application the tool's tests run against. */
@NullMarked
package dev.durable.cli.app;

import org.jspecify.annotations.NullMarked;
