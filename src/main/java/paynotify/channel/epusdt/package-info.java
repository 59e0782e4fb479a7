/**
 * epusdt and its forks (assimon/epusdt, GMWalletApp/epusdt, v03413/BEpusdt), in only: USDT payments of a fiat
 * order, a JSON callback signed with MD5 over its sorted fields and the API token; paid at status 2. Nothing is
 * asked of it.
 */
package paynotify.channel.epusdt;
