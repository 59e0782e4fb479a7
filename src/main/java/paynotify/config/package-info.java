/**
 * {@code conf/application.yaml} (and the environment) read and checked into settings, before anything runs:
 * {@link paynotify.config.AppConfig} is the whole of it. A {@code *Config} class reads one section into the
 * settings record of the room that owns it ({@code OrdersConfig} into {@code store.OrdersTable},
 * {@code ForwardConfig} into {@code forward.ForwardSettings}, {@code ChannelsConfig} into the enabled
 * {@code channel.NotifyChannel}s, {@code OutboundConfig} into each platform's {@code channel.Outbound}, the one
 * registration of a platform's outbound side); {@link paynotify.config.ConfigReader} records every key read, so that
 * {@link paynotify.config.UnknownKeys} can name a misspelt one. A wrong value is a
 * {@link paynotify.config.ConfigException} naming the file and the key: exit 2.
 */
package paynotify.config;
