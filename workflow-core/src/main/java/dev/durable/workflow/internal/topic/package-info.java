/**
 * Events on topics: {@link dev.durable.workflow.internal.topic.TopicPublisher} stores a
 * published event, {@link dev.durable.workflow.internal.topic.TopicDispatcher} gives it
 * its position and hands it to the runs whose waits it matches. The waits themselves are
 * registered by the commits of the tasks that begin them (in the store). Below the client
 * and the worker, above the store.
 */
@NullMarked
package dev.durable.workflow.internal.topic;

import org.jspecify.annotations.NullMarked;
