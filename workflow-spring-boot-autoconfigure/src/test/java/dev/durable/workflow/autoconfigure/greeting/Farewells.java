package dev.durable.workflow.autoconfigure.greeting;

import dev.durable.workflow.activity.Activity;

/** An activity interface, implemented by a bean of the application. */
@Activity
public interface Farewells {

	String farewell(String name);

}
