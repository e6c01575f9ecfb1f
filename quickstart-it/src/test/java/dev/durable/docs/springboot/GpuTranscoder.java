package dev.durable.docs.springboot;

import org.springframework.stereotype.Component;

// @formatter:off
// snippet:spring-boot-worker-only-node part 3
@Component                                             // on the gpu nodes only
public class GpuTranscoder implements Transcoding {
  public String transcode(String video) { return video + ".h265"; }   // on the GPU
}
// end-snippet
// @formatter:on
