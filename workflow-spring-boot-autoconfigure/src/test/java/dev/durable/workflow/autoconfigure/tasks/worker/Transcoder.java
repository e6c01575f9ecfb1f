package dev.durable.workflow.autoconfigure.tasks.worker;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.durable.workflow.autoconfigure.tasks.Transcoding;

/** The gpu node's implementation of the activity; records what it transcoded. */
public class Transcoder implements Transcoding {

	private final List<String> videos = new CopyOnWriteArrayList<>();

	@Override
	public String transcode(String video) {
		this.videos.add(video);
		return video + ".mp4";
	}

	public List<String> videos() {
		return this.videos;
	}

}
