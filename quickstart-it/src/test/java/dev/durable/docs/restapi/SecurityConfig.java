package dev.durable.docs.restapi;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

// @formatter:off
// snippet:rest-api-security
@Configuration
class SecurityConfig {
  @Bean
  SecurityFilterChain durableSecurity(HttpSecurity http) throws Exception {
    return http.securityMatcher("/durable/**")
        .authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
        .httpBasic(Customizer.withDefaults())
        .csrf((csrf) -> csrf.ignoringRequestMatchers("/durable/**"))  // an API: no browser form posts
        .build();
  }
}
// end-snippet
// @formatter:on
